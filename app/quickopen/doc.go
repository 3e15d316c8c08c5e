// Package quickopen ranks names for the window's fuzzy finders: project
// files for Go to File (Ctrl+P) and actions for the command palette
// (Ctrl+Shift+P). It is plain code: no Fyne, no I/O; Rank is safe for
// concurrent use, a Ranker is not. Matching is github.com/sahilm/fuzzy's
// (the Sublime/VS Code style scoring lazygit uses); this package adds what a
// file finder needs on top: a `:N` line suffix, a preference for matches in
// the base name and for shorter paths, and a bound on the results. So that
// one keystroke over tens of thousands of files fits in a frame, names in
// ASCII are scored by a byte-wise copy of the library's scoring (the tests
// compare the two name by name), names the pattern's letters do not occur in
// are left out first, large lists are split over the cores, only the best
// results are sorted, and a Ranker rescores only the last keystroke's
// matches when the query grows.
package quickopen
