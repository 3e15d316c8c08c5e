// Package sweep keeps the evaluator's per-user cache folders from piling
// up: the supervisor binaries (compiled), the worker builds and dependency
// tables (workerbuild) and the selection records (eval). An entry's last
// use is its modification time (MarkUsed sets it); a sweep removes the
// entries of a folder unused for too long, and of the rest all but the
// newest few, never an entry in use and never one it does not recognise.
//
// A sweep is best-effort: a folder it cannot read or an entry it cannot
// remove is left as it is. Nothing here imports Fyne or writes to
// os.Stdout.
package sweep
