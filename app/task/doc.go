// Package task runs a project's tasks (go build, go test, go vet, or the
// commands of .trestle.json) one at a time per project, each in its own
// process group, streaming output lines, keeping a bounded tail and turning
// "file:line:col: message" lines into problems.
//
// Nothing here imports Fyne or writes to os.Stdout: a task's output goes to
// the caller's callback and to the run's buffer.
package task
