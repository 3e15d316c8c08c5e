package agent

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"trestle/app/task"
)

// liveSettle: how long gopls must have published nothing before its
// diagnostics are taken as complete, and liveWait the most a call waits
// for that (the first call starts gopls, which then diagnoses the module).
const (
	liveSettle = 400 * time.Millisecond
	liveWait   = 20 * time.Second
)

// LiveProblem is one of gopls's diagnostics, labelled by where it came
// from.
type LiveProblem struct {
	Path            string // project-relative
	Line, Col       int    // 1-based; Col in runes
	EndLine, EndCol int
	Severity        string // error, warning, information, hint
	Source          string // "gopls" or "gopls/<analyzer>"
	Message         string
}

// LiveProblems are gopls's current diagnostics under filter (a
// project-relative file or folder, "" for all), the window's unsaved
// editor text included, once gopls has published nothing for a moment
// (waiting at most liveWait). Without gopls they are nil with no error;
// the error says why they are unavailable (gopls would not start, or did
// not settle in time).
func (a *Agent) LiveProblems(ctx context.Context, filter string) ([]LiveProblem, error) {
	if a.cfg.Services.LSP == nil {
		return nil, nil
	}
	c, gctx, cancel := a.Gopls(ctx)
	defer cancel()
	wctx, wcancel := context.WithTimeout(gctx, liveWait)
	defer wcancel()
	if err := c.Settle(wctx, liveSettle); err != nil {
		return nil, goplsErr(err)
	}
	out := []LiveProblem{}
	for _, d := range c.Diagnostics(filter) {
		src := "gopls"
		if d.Source != "" && d.Source != "compiler" {
			src += "/" + d.Source
		}
		out = append(out, LiveProblem{Path: d.Path, Line: d.Range.Start.Line, Col: d.Range.Start.Col,
			EndLine: d.Range.End.Line, EndCol: d.Range.End.Col, Severity: d.Severity, Source: src, Message: d.Message})
	}
	return out, nil
}

// checksGo: run is a go build, vet or test (a built-in task or one of
// .trestle.json's), or found problems: a run Diagnostics reports. A task
// that only sleeps or serves says nothing of the code.
func checksGo(run *task.Run) bool {
	argv := run.Command()
	if len(argv) >= 2 && filepath.Base(argv[0]) == "go" && slices.Contains([]string{"build", "vet", "test"}, argv[1]) {
		return true
	}
	return len(run.Problems()) > 0
}

// DiagnosticsOutput is what Diagnostics found.
type DiagnosticsOutput struct {
	Filter string // the path asked about, project-relative; "" for all
	// Run is the last build, vet or test run (the go vet just run, when
	// refreshed); nil when none has run.
	Run      *task.Run
	Problems []task.Problem // Run's problems under Filter
	Live     []LiveProblem  // gopls's, as of now (LiveProblems); nil without gopls
	LiveErr  error          // why Live is unavailable, if it is
}

// Diagnostics are the problems under path (a project file or folder; ""
// for all) from the last build, vet or test run, and gopls's live ones.
// refresh runs go vet first for who, as Vet does.
func (a *Agent) Diagnostics(ctx context.Context, who Caller, path string, refresh bool) (DiagnosticsOutput, error) {
	var out DiagnosticsOutput
	if path != "" {
		cp, err := a.Path(path)
		if err != nil {
			return out, err
		}
		out.Filter = cp.Rel()
	}
	out.Run = a.cfg.Services.Tasks.LastWhere(checksGo)
	if refresh {
		run, err := a.Vet(ctx, who, out.Filter)
		if err != nil {
			return out, err
		}
		out.Run = run
	}
	out.Live, out.LiveErr = a.LiveProblems(ctx, out.Filter)
	out.Problems = []task.Problem{}
	if out.Run == nil {
		return out, nil
	}
	under := strings.TrimSuffix(out.Filter, "/") + "/"
	for _, pr := range out.Run.Problems() {
		if out.Filter == "" || pr.Path == out.Filter || strings.HasPrefix(pr.Path, under) {
			out.Problems = append(out.Problems, pr)
		}
	}
	return out, nil
}
