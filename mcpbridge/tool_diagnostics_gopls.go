package mcpbridge

import (
	"fmt"
	"strings"

	"trestle/app/agent"
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

// liveOf is gopls's part of a Diagnostics answer as agents read it: nil
// without gopls, or with why it is unavailable.
func liveOf(out agent.DiagnosticsOutput) ([]liveProblem, string) {
	if out.LiveErr != nil {
		return nil, out.LiveErr.Error()
	}
	if out.Live == nil {
		return nil, ""
	}
	live := []liveProblem{}
	for _, p := range out.Live {
		live = append(live, liveProblem{Path: p.Path, Line: p.Line, Col: p.Col, EndLine: p.EndLine, EndCol: p.EndCol,
			Severity: p.Severity, Source: p.Source, Message: p.Message})
	}
	return live, ""
}

// describeLive is gopls's part of the answer; seen says what gopls sees
// (the window's unsaved text, or headless the files on disk).
func describeLive(live []liveProblem, why, seen string) string {
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
	fmt.Fprintf(&b, "%s from gopls (live, %s):\n", plural(len(live), "problem"), seen)
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
