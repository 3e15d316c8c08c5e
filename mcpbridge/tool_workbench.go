package mcpbridge

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/gitstatus"
	"trestle/app/trust"
	"trestle/app/workbench"
)

type workbenchParams struct{}

type runInfo struct {
	RunID      string `json:"run_id"`
	Task       string `json:"task"`
	State      string `json:"state"`
	DurationMS int64  `json:"duration_ms"`
}

type workbenchResult struct {
	State       string                     `json:"state"`
	Root        string                     `json:"root"`
	Module      string                     `json:"module"`
	Tabs        []workbench.Tab            `json:"tabs"`
	Active      string                     `json:"active"`
	Selection   *workbench.EditorSelection `json:"selection,omitempty"`
	Evaluators  []eval.WorkerStatus        `json:"evaluators,omitempty"`
	Run         *runInfo                   `json:"run,omitempty"`
	Pending     []string                   `json:"pending_change_sets"`
	Git         *gitstatus.Status          `json:"git,omitempty"`
	GitError    string                     `json:"git_error,omitempty"`
	Listener    string                     `json:"listener"`
	Clients     []workbench.Client         `json:"clients"`
	ConfigError string                     `json:"config_error,omitempty"`
	Trust       *trustInfo                 `json:"trust"`
}

// trustInfo is the project's trust (package trust): what is off while it
// is untrusted, and what .trestle.json asked for that is withheld.
type trustInfo struct {
	Trusted  bool     `json:"trusted"`
	Off      []string `json:"off,omitempty"`
	Withheld string   `json:"withheld,omitempty"`
	How      string   `json:"how_to_trust,omitempty"`
}

func (s *Server) workbenchTool() server.ServerTool {
	tool := mcp.NewTool("trestle_workbench",
		mcp.WithDescription("What the person sees: project root and module, open tabs, caret and selection, "+
			"evaluators, the running task, pending change sets, git state, attached agents, and whether the "+
			"project is trusted (if not, .trestle.json's own tasks are refused). Call it first. e.g. {}"),
		mcp.WithInputSchema[workbenchParams](),
		results[workbenchResult](),
		hints("Look at the workbench", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.workbench)}
}

func (s *Server) workbench(ctx context.Context, _ workbenchParams) *mcp.CallToolResult {
	tabs, err := s.opts.Window.Tabs(ctx)
	if err != nil {
		return failErr(err)
	}
	res := workbenchResult{State: stateDone, Root: s.opts.Project.Root, Module: s.opts.Project.Module,
		Tabs: tabs, Clients: s.clients(), Pending: []string{}}
	if l := s.listener.Load(); l != nil {
		res.Listener = l.Addr()
	}
	for _, t := range tabs {
		if t.Active {
			res.Active = t.Path
		}
	}
	if sel, err := s.opts.Window.Selection(ctx); err == nil {
		res.Selection = &sel
	}
	s.addServices(&res)
	s.addGit(ctx, &res)
	return done(res, "%s", describeWorkbench(res))
}

// addServices adds the evaluators, the run and the pending change sets.
func (s *Server) addServices(res *workbenchResult) {
	sv := s.opts.Services
	if sv.Eval != nil {
		res.Evaluators = sv.Eval.Status()
	}
	if sv.Tasks != nil {
		if run := sv.Tasks.Current(); run != nil {
			res.Run = &runInfo{RunID: run.ID, Task: run.Task.Name, State: string(run.State()),
				DurationMS: run.Duration().Milliseconds()}
		}
	}
	if sv.ChangeSets != nil {
		if list, err := sv.ChangeSets.List(changeset.StatePending); err == nil {
			for _, cs := range list {
				res.Pending = append(res.Pending, cs.ID)
			}
		}
	}
	conf, err := s.opts.Services.ProjectConfig()
	if err != nil {
		res.ConfigError = err.Error()
	}
	res.Trust = &trustInfo{Trusted: sv.Trust.Trusted()}
	if !res.Trust.Trusted {
		res.Trust.Off, res.Trust.Withheld, res.Trust.How = trust.Off, conf.Withheld.Summary(), trust.HowToTrust
	}
}

func (s *Server) addGit(ctx context.Context, res *workbenchResult) {
	st, ok, err := s.git.read(ctx, s.opts.Project.Root, s.opts.Services.Trust.Trusted())
	switch {
	case err != nil:
		res.GitError = err.Error()
	case ok:
		res.Git = &st
	}
}

func describeWorkbench(w workbenchResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Project %s", w.Root)
	if w.Module != "" {
		fmt.Fprintf(&b, " (module %s)", w.Module)
	}
	b.WriteString("\nOpen tabs:")
	if len(w.Tabs) == 0 {
		b.WriteString(" none")
	}
	for _, t := range w.Tabs {
		mark := ""
		if t.Active {
			mark = " (active)"
		}
		if t.Dirty {
			mark += " (unsaved)"
		}
		fmt.Fprintf(&b, "\n  %s%s", t.Path, mark)
	}
	if sel := w.Selection; sel != nil {
		fmt.Fprintf(&b, "\nCaret %s:%d:%d", sel.Path, sel.StartLine, sel.StartCol)
		switch {
		case sel.Text == "":
		case len(sel.Text) <= maxSelectionInText:
			fmt.Fprintf(&b, ", selected to %d:%d: %q", sel.EndLine, sel.EndCol, sel.Text)
		default:
			fmt.Fprintf(&b, ", selected to %d:%d (%d bytes; read them with trestle_selection)", sel.EndLine, sel.EndCol, len(sel.Text))
		}
	}
	for _, e := range w.Evaluators {
		fmt.Fprintf(&b, "\nEvaluator %s: %s", e.Selection, e.State)
		if e.PID > 0 {
			fmt.Fprintf(&b, " (pid %d)", e.PID)
		}
	}
	if w.Run != nil {
		fmt.Fprintf(&b, "\nRunning: %s %s for %s", w.Run.RunID, w.Run.Task, (time.Duration(w.Run.DurationMS) * time.Millisecond).String())
	}
	if len(w.Pending) > 0 {
		fmt.Fprintf(&b, "\nPending change sets: %s", strings.Join(w.Pending, ", "))
	}
	if g := w.Git; g != nil {
		fmt.Fprintf(&b, "\nGit branch %s, %d changed files", g.Branch, len(g.Changed))
		if g.Head != "" {
			fmt.Fprintf(&b, " (head %s)", g.Head)
		}
		for _, c := range g.Changed {
			fmt.Fprintf(&b, "\n  %s", c)
		}
	}
	if w.GitError != "" {
		fmt.Fprintf(&b, "\nGit: %s", w.GitError)
	}
	if w.ConfigError != "" {
		fmt.Fprintf(&b, "\n.trestle.json problem (defaults used): %s", w.ConfigError)
	}
	if t := w.Trust; t != nil && !t.Trusted {
		fmt.Fprintf(&b, "\nThe project is untrusted, so: %s.", strings.Join(t.Off, "; "))
		if t.Withheld != "" {
			fmt.Fprintf(&b, " Withheld from .trestle.json: %s.", t.Withheld)
		}
		fmt.Fprintf(&b, " To change that, the person can %s.", t.How)
	}
	names := make([]string, len(w.Clients))
	for i, c := range w.Clients {
		names[i] = c.Name
	}
	fmt.Fprintf(&b, "\nListener %s; attached: %s", w.Listener, strings.Join(names, ", "))
	return b.String()
}

// maxSelectionInText is how much selected text the workbench's text
// quotes; more is left to trestle_selection.
const maxSelectionInText = 200

// gitTTL is how long a git status is reused: agents call trestle_workbench
// often, and each git status is a process that scans the work tree.
const gitTTL = 2 * time.Second

// gitCache remembers the last git status for gitTTL; concurrent callers
// wait for one read instead of starting their own. Safe for concurrent use.
type gitCache struct {
	mu  sync.Mutex
	at  time.Time
	st  gitstatus.Status
	ok  bool
	err error
	// trusted is the trust the status was read under.
	trusted bool
}

func (c *gitCache) read(ctx context.Context, dir string, trusted bool) (gitstatus.Status, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if time.Since(c.at) > gitTTL || c.trusted != trusted {
		c.st, c.ok, c.err = gitstatus.Read(ctx, dir, trusted)
		c.at, c.trusted = time.Now(), trusted
	}
	return c.st, c.ok, c.err
}
