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
// Each client runs a gopls of its own, not a shared `gopls -remote=auto`
// daemon. Measured (BenchmarkGoplsSharing, docs/performance.md), a window
// and a headless server on one module would save about a quarter of the
// two gopls's memory, not a whole gopls (the daemon keeps a snapshot per
// session; only the file cache is shared, and gopls's on-disk cache is
// shared by separate processes anyway), and the first answer would come
// about a second later (the daemon starts first). Against that: the
// daemon leaves Trestle's process group (it calls setsid), outlives the
// last Trestle by its idle timeout, is shared with any other gopls
// -remote=auto of the same binary, and a killed daemon restarts every
// client at once. The common case needs none of it: an agent attached to
// a window (--mcp-attach) uses the window's gopls. TestSeparateGoplsPerMode
// pins the behaviour.
//
// It is plain Go: no Fyne, no cgo, nothing on os.Stdout (gopls's stdout is
// a pipe to this package; its stderr goes to the logger).
package lsp
