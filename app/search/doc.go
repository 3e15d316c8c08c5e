// Package search finds text in a project's files: literal or regular
// expression, optionally case-insensitive, filtered by glob, skipping .git,
// what .gitignore ignores and binary files, in parallel over the tree.
//
// It is plain Go (no Fyne, no cgo) and never writes to os.Stdout.
package search
