// Package eval is the project evaluator: Go evaluated by yaegi in a worker
// process per selection, with the project's own packages and its module
// dependencies imported from source.
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
