package errdefs

import "errors"

// The sentinels. Functions that return one wrap it with what was being done
// and where.
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
