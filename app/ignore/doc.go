// Package ignore answers whether a project path is ignored by git: the
// project's .gitignore files (the root one and nested ones), its
// .git/info/exclude, and .git itself, which is always ignored.
//
// It reads files but never writes them, never imports Fyne and never
// writes to os.Stdout.
package ignore
