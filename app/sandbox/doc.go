// Package sandbox is where a hosted agent (package acp) works: a staging
// copy of the project per session (Stage), commands run inside bubblewrap
// so that the real project is read-only to them (Command), and the diff of
// the staging copy against the project made into one pending change set
// (Stage.Propose). Whatever the agent writes, by any means, lands in the
// staging copy; only the person's apply of the change set reaches the
// project.
//
// sandbox never imports Fyne, builds with CGO_ENABLED=0 and writes nothing
// to os.Stdout. It never writes the real project.
package sandbox
