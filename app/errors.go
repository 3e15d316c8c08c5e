package app

import "errors"

// Sentinel errors that callers map to a tool state. They are wrapped with
// context (what and where) by the functions that return them.
var (
	// ErrOutside means a path leaves the project root (.., absolute, or a symlink out).
	ErrOutside = errors.New("path is outside the project")
	// ErrNotFound means the file, folder or record does not exist.
	ErrNotFound = errors.New("not found")
	// ErrTooLarge means an input or a file is over its size limit.
	ErrTooLarge = errors.New("too large")
	// ErrBusy means the UI or a worker did not answer within its bound.
	ErrBusy = errors.New("busy")
	// ErrRefused means policy or the person said no.
	ErrRefused = errors.New("refused")
	// ErrInvalid means an argument is malformed (a bad range, a folder where a file was expected).
	ErrInvalid = errors.New("invalid argument")
)
