package errdefs

import (
	"errors"
	"io/fs"
	"testing"
)

func TestErrorfIsItsKindAndSaysOnlyItsMessage(t *testing.T) {
	err := Errorf(ErrNotFound, "read %s: no such file in the project", "nope.go")
	if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrInvalid) {
		t.Fatalf("errors.Is: %v", err)
	}
	if got := err.Error(); got != "read nope.go: no such file in the project" {
		t.Fatalf("text %q", got)
	}
	wrapped := Errorf(ErrInvalid, "open: %w", fs.ErrPermission)
	if !errors.Is(wrapped, fs.ErrPermission) || !errors.Is(wrapped, ErrInvalid) {
		t.Fatalf("%%w is kept: %v", wrapped)
	}
}
