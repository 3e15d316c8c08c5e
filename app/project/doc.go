// Package project is one opened project folder: its root and module path,
// path confinement (Resolve and ResolveShown keep every path inside the root,
// after resolving symlinks, and keep git's metadata from agents), reading and
// listing its files, and writing the built-in scratch project.
//
// It never writes a project file on an agent's behalf (change sets do that,
// after the person's review), never imports Fyne and never writes to
// os.Stdout.
package project
