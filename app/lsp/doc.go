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
// daemon. Measured on bbolt (BenchmarkGoplsSharing, docs/performance.md),
// a window and a headless server sharing one daemon would use 201 MiB
// instead of 227: the daemon keeps a snapshot per session (140 MiB for
// two against 114 for one) and each client still runs a forwarder, a
// gopls process of 30 MiB. And the first answer comes 1.2 s later (the
// forwarder hashes its binary, then starts the daemon). Against that
// small saving: the daemon leaves Trestle's process group (it calls
// setsid), outlives the last Trestle by its idle timeout (a minute), is
// shared with any other gopls -remote=auto of the same binary, and a
// killed daemon restarts every client at once. The common case needs
// none of it: an agent attached to a window (--mcp-attach) uses the
// window's gopls. TestSeparateGoplsPerMode pins the behaviour.
//
// It is plain Go: no Fyne, no cgo, nothing on os.Stdout (gopls's stdout is
// a pipe to this package; its stderr goes to the logger).
package lsp
