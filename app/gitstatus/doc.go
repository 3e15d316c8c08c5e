// Package gitstatus reads a project's git branch and changed files from
// `git status --porcelain=v2 --branch`, bounded in time. Plain Go: no Fyne,
// no cgo, nothing on os.Stdout. Every git it runs is hardened (see
// Command): the repository is named explicitly, never found as a bare
// folder, and no hook, fsmonitor or external diff runs. Unless the project
// is trusted (package trust), every setting of git's config files but a
// few harmless ones is turned off as well (neutral.go), so no filter,
// diff driver or included file the project's authors wrote can run.
package gitstatus
