// Package registry records running Trestle windows so that other processes
// can find them.
//
// Each window listens on a loopback TCP port and stores an Entry as
// <dir>/<pid>.json. The bridge started by `trestle --mcp-attach [DIR]`
// reaps dead entries, lists the live ones and discovers the window to talk
// to; `trestle --list` prints them with Format.
//
// The package uses only the standard library: it must never import other
// Trestle packages, and it must never write to os.Stdout (the MCP bridge
// owns stdout for its protocol). Errors are returned, not printed.
package registry
