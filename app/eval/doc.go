// Package eval is the project evaluator: Go evaluated by yaegi in a worker
// process per selection. Each selection's worker is built natively for the
// project (package workerbuild: the toolchain's standard library, the
// dependencies and the project packages yaegi cannot interpret, linked in);
// the rest of the project is interpreted from source. Until that build is
// ready, or when it fails, the trestle binary's own interpreter serves
// (yaegi's bundled tables, dependencies interpreted from source).
//
// The client side is Manager (one per project, safe for concurrent use); the
// worker side is RunWorker, which the trestle binary runs in its hidden
// --eval-worker mode. They talk JSON lines over the worker's stdin and stdout.
// Every evaluation has a deadline; past it, or on Stop, the worker's whole
// process group is killed and the next evaluation starts a fresh worker, so a
// stuck or crashed evaluation never wedges the window or another selection.
//
// Nothing here imports Fyne. Nothing here writes to os.Stdout except
// RunWorker's protocol stream, the writer handed to it; the evaluated code's
// output is captured per evaluation.
package eval
