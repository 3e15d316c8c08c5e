package agent

import (
	"context"
	"time"
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
