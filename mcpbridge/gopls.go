package mcpbridge

import (
	"fmt"

	"trestle/app/agent"
)

// What the gopls tools (trestle_symbols, _definition, _references,
// _package_api, _rename and the live part of trestle_diagnostics) share in
// their answers; app/agent does the lookups. Symbols, definition,
// references and package_api answer in text only (doneText): every fact
// is in the text, path:line:column first, as compilers and gopls print it.

// locText is a location as agents read it: path:line:column, 1-based.
func locText(l agent.Location) string { return fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Column) }

// goplsHeadline is how the gopls tools' descriptions end, in this mode.
func (s *Server) goplsHeadline() string {
	return s.inMode("Answered by gopls, unsaved editor text included. ", "Answered by gopls. ")
}
