package ui

import (
	"context"
	"fmt"

	"trestle/app/errdefs"
)

// ApplyAsPerson selects change set id in the Change Sets pane and presses
// Apply with every file ticked: the path a person's click takes. It is a
// test hook for the end-to-end tests (served only with TRESTLE_TEST_HOOKS=1);
// it returns an error wrapping errdefs.ErrNotFound while the pane does not
// list id yet. Safe for concurrent use from any goroutine but the main one.
func (w *Window) ApplyAsPerson(ctx context.Context, id string) error {
	var listed bool
	err := Call(ctx, 0, func() {
		v := w.changes
		if v == nil {
			return
		}
		i := v.index(id)
		if listed = i >= 0; !listed {
			return
		}
		w.panes.tabs.Select(v.item)
		v.list.Select(i)
		v.applySelected()
	})
	if err == nil && !listed {
		err = fmt.Errorf("the Change Sets pane does not list %s yet: %w", id, errdefs.ErrNotFound)
	}
	return err
}
