package errdefs

import (
	"errors"
	"fmt"
)

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

// Errorf is an error of kind (one of the sentinels above) whose text is
// the formatted message alone: errors.Is(err, kind) holds, but the
// sentinel's own words ("not found") are not glued to a message that
// already says so. %w in format wraps as fmt.Errorf does.
func Errorf(kind error, format string, args ...any) error {
	return kindError{kind: kind, err: fmt.Errorf(format, args...)}
}

type kindError struct {
	kind error
	err  error
}

func (e kindError) Error() string   { return e.err.Error() }
func (e kindError) Unwrap() []error { return []error{e.kind, e.err} }
