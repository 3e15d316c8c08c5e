// Package quickopen ranks names for the window's fuzzy finders: project
// files for Go to File (Ctrl+P) and actions for the command palette
// (Ctrl+Shift+P). It is plain code: no Fyne, no I/O, safe for concurrent
// use. Matching is github.com/sahilm/fuzzy's (the Sublime/VS Code style
// scoring lazygit uses); this package adds what a file finder needs on top:
// a `:N` line suffix, a preference for matches in the base name and for
// shorter paths, and a bound on the results.
package quickopen
