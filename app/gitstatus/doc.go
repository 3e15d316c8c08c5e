// Package gitstatus reads a project's git branch and changed files from
// `git status --porcelain=v2 --branch`, bounded in time. Plain Go: no Fyne,
// no cgo, nothing on os.Stdout.
package gitstatus
