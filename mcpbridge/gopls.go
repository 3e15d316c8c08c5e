package mcpbridge

import (
	"fmt"

	"trestle/app/agent"
)

// What the gopls tools (trestle_symbols, _definition, _references,
// _package_api, _rename and the live part of trestle_diagnostics) share in
// their answers; app/agent does the lookups.

// locationLine is a location as agents read it.
type locationLine struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	EndLine int    `json:"end_line,omitempty"`
	Text    string `json:"text,omitempty"`
}

func (l locationLine) String() string { return fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Column) }

// locationOf is an agent.Location as agents read it.
func locationOf(l agent.Location) locationLine {
	return locationLine{Path: l.Path, Line: l.Line, Column: l.Column, EndLine: l.EndLine, Text: l.Text}
}

// goplsHeadline is how the gopls tools' descriptions end, in this mode.
func (s *Server) goplsHeadline() string {
	return s.inMode("Answered by gopls, unsaved editor text included. ", "Answered by gopls. ")
}
