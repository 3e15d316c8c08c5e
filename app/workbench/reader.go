package workbench

import (
	"context"
	"errors"
	"fmt"

	"trestle/app/errdefs"
	"trestle/app/project"
)

// Reader reads project files as the person sees them: an open editor's
// text when the window has the file in a tab, else the file on disk. It is
// the one reader behind trestle_read, the bases of proposed change sets and
// the checks before an apply or revert, in the window and headless. Safe
// for concurrent use; with Buffers set, not on the main goroutine (the
// editor read is a bounded main-thread call).
type Reader struct {
	Project *project.Project
	// Buffers is asked first for an open editor's text; nil reads disk only
	// (the headless server, `trestle changes`).
	Buffers Buffers
	// Sums spares hashing a file read from disk before and unchanged
	// since; nil hashes every read.
	Sums *project.Sums
}

// Read returns path's text, and whether it is unsaved editor text. The disk
// read refuses what project.Read refuses; git's metadata is refused either way.
func (r Reader) Read(ctx context.Context, path project.Path) (ft project.FileText, unsaved bool, err error) {
	if err := path.Shown(); err != nil {
		return project.FileText{}, false, err
	}
	if r.Buffers != nil && !path.IsZero() {
		text, open, dirty, err := r.Buffers.Buffer(ctx, path)
		if err != nil {
			return project.FileText{}, false, fmt.Errorf("read %s from its editor: %w", path, err)
		}
		if open {
			return project.NewFileText(path.Rel(), text), dirty, nil
		}
	}
	ft, err = r.Project.ReadSummed(path, r.Sums)
	return ft, false, err
}

// Current is Read as change sets take it: a missing file is exists ==
// false with a nil error.
func (r Reader) Current(ctx context.Context, path project.Path) (text string, exists bool, err error) {
	ft, _, err := r.Read(ctx, path)
	if errors.Is(err, errdefs.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return ft.Text, true, nil
}

// Func is Current with ctx, in the shape of changeset.ReadFunc.
func (r Reader) Func(ctx context.Context) func(project.Path) (string, bool, error) {
	return func(path project.Path) (string, bool, error) { return r.Current(ctx, path) }
}
