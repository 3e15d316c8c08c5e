// Package gitstatus reads a project's git branch and changed files from
// `git status --porcelain=v2 --branch`, bounded in time. Plain Go: no Fyne,
// no cgo, nothing on os.Stdout. Every git it runs is hardened (see
// Command): the repository is named explicitly, never found as a bare
// folder, and no config file can make git run a command (fsmonitor, hooks,
// external diff) — the project's files are an agent's to propose.
package gitstatus
