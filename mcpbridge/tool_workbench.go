package mcpbridge

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/eval"
	"trestle/app/gitstatus"
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
	snap, err := s.agent.Workbench(ctx)
	if err != nil {
		return failErr(err)
	}
	res := workbenchResult{State: stateDone, Root: snap.Root, Module: snap.Module, Tabs: snap.Tabs, Active: snap.Active,
		Selection: snap.Selection, Evaluators: snap.Evaluators, Pending: snap.Pending, Git: snap.Git, GitError: snap.GitError,
		Clients: s.clients(), ConfigError: snap.ConfigError, Trust: &trustInfo{Trusted: snap.Trust.Trusted,
			Off: snap.Trust.Off, Withheld: snap.Trust.Withheld, How: snap.Trust.How}}
	if run := snap.Run; run != nil {
		res.Run = &runInfo{RunID: run.ID, Task: run.Task.Name, State: string(run.State()), DurationMS: run.Duration().Milliseconds()}
	}
	if l := s.listener.Load(); l != nil {
		res.Listener = l.Addr()
	}
	return done(res, "%s", describeWorkbench(res))
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
		if e.Native != "" {
			fmt.Fprintf(&b, "; %s", e.Native)
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
