// Package lsp is Trestle's client of gopls, the Go team's language server:
// one gopls process per project, started on first use, spoken to over
// stdio with the Language Server Protocol, fed the editor's unsaved text,
// restarted with backoff when it dies or hangs.
//
// Callers never wait on gopls without a deadline: every request takes a
// context and gives up with it, and a gopls that stops answering is killed
// and started again. Positions in this package's API are 1-based lines and
// 1-based columns counted in runes, as the rest of Trestle counts them;
// the UTF-16 columns of the protocol stay inside.
//
// It is plain Go: no Fyne, no cgo, nothing on os.Stdout (gopls's stdout is
// a pipe to this package; its stderr goes to the logger).
package lsp
