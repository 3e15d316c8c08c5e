package review

import (
	"fmt"

	"trestle/app"
	"trestle/app/changeset"
)

// applySelection applies sel (for each path its accepted hunks, nil for
// the whole file) of change set id. Off the main goroutine.
func (v *View) applySelection(id string, sel map[string][]int) (changeset.ChangeSet, error) {
	var include []string
	for p, hunks := range sel {
		if hunks != nil {
			return changeset.ChangeSet{}, fmt.Errorf("apply %s: per-hunk apply is not available yet: %w", id, app.ErrInvalid)
		}
		include = append(include, p)
	}
	return v.m.Apply(id, include, v.reader(), nil)
}

// undoRevert applies reverted change set id again. Off the main goroutine.
func (v *View) undoRevert(id string) (changeset.ChangeSet, error) {
	return changeset.ChangeSet{}, fmt.Errorf("undo the revert of %s: not available yet: %w", id, app.ErrInvalid)
}

// editFile makes text the new text of path in change set id. Off the
// main goroutine.
func (v *View) editFile(id, path, text string) (changeset.ChangeSet, error) {
	return changeset.ChangeSet{}, fmt.Errorf("edit %s in %s: not available yet: %w", path, id, app.ErrInvalid)
}

// storedHunkState is what the store records for hunk n of f, "" when it
// records nothing.
func storedHunkState(f changeset.FileChange, n int) string { return "" }
