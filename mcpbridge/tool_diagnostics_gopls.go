package mcpbridge

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// liveSettle: how long gopls must have published nothing before its
// diagnostics are taken as complete, and liveWait the most a call waits
// for that (the first call starts gopls, which then diagnoses the module).
const (
	liveSettle = 400 * time.Millisecond
	liveWait   = 20 * time.Second
)

// liveProblem is one of gopls's diagnostics, labelled by where it came from.
type liveProblem struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"column"`
	EndLine  int    `json:"end_line"`
	EndCol   int    `json:"end_column"`
	Severity string `json:"severity"`
	Source   string `json:"source"` // "gopls" or "gopls/<analyzer>"
	Message  string `json:"message"`
}

// liveProblems are gopls's current diagnostics under filter (the window's
// unsaved editor text included), or nil without gopls, with why not.
func (s *Server) liveProblems(ctx context.Context, filter string) ([]liveProblem, string) {
	if s.opts.Services.LSP == nil {
		return nil, ""
	}
	c, gctx, cancel := s.gopls(ctx)
	defer cancel()
	wctx, wcancel := context.WithTimeout(gctx, liveWait)
	defer wcancel()
	if err := c.Settle(wctx, liveSettle); err != nil {
		return nil, err.Error()
	}
	out := []liveProblem{}
	for _, d := range c.Diagnostics(filter) {
		src := "gopls"
		if d.Source != "" && d.Source != "compiler" {
			src += "/" + d.Source
		}
		out = append(out, liveProblem{Path: d.Path, Line: d.Range.Start.Line, Col: d.Range.Start.Col,
			EndLine: d.Range.End.Line, EndCol: d.Range.End.Col, Severity: d.Severity, Source: src, Message: d.Message})
	}
	return out, ""
}

func describeLive(live []liveProblem, why string) string {
	if why != "" {
		return "Live diagnostics unavailable: " + why + "\n"
	}
	if live == nil {
		return ""
	}
	if len(live) == 0 {
		return "gopls reports no problems.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s from gopls (live, unsaved text included):\n", plural(len(live), "problem"))
	for _, p := range live {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", p.Path, p.Line, p.Col, p.Severity, p.Message, p.Source)
	}
	return b.String()
}

// liveWhy is why there are no live diagnostics, as a clause to append.
func liveWhy(why string) string {
	if why == "" {
		return ""
	}
	return " (gopls's live diagnostics are unavailable: " + why + ")"
}
