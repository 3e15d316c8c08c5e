// Package services bundles a project's evaluator, task runner,
// configuration and agent permission gate, which the window and the MCP
// tools share. It is plain Go: no Fyne, no cgo, nothing on os.Stdout.
package services
