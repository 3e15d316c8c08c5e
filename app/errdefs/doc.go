// Package errdefs defines the sentinel errors every layer of Trestle wraps
// (with what and where) and the MCP tools map to a tool state: ErrRefused and
// ErrOutside are "refused", ErrBusy is "busy", ErrNotFound is "none", and
// ErrInvalid and ErrTooLarge are "problem".
//
// It imports nothing of Trestle's, so every package can use it.
package errdefs
