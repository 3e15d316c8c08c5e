package workbench

import (
	"context"

	"trestle/app/project"
)

// Window is what the window tools need from the UI. The ui package
// implements it; the headless server has none. Every method is one bounded
// main-thread call: when the UI does not answer within its bound the method
// returns an error wrapping errdefs.ErrBusy and the work is abandoned. Safe for
// concurrent use.
type Window interface {
	// Tabs returns the open editors in tab order, the active one flagged.
	Tabs(ctx context.Context) ([]Tab, error)
	// Open opens path (already confined: Open does not resolve it again)
	// in a tab, or focuses its tab, and puts the caret on line (1-based;
	// 0 leaves it).
	Open(ctx context.Context, path project.Path, line int) error
	Buffers
	// Selection is the active editor's path, selected text and range; an
	// error wrapping errdefs.ErrNotFound when no editor is open.
	Selection(ctx context.Context) (EditorSelection, error)
	// SelectRange opens path (already confined) and selects the range
	// (1-based, columns in runes).
	SelectRange(ctx context.Context, path project.Path, startLine, startCol, endLine, endCol int) error
	// Output is the text of the "run" or "eval" pane, its last tail lines
	// when tail > 0.
	Output(ctx context.Context, pane string, tail int) (string, error)
	// Notice shows the person a message from client in a dismissable notice.
	Notice(ctx context.Context, client, message string) error
}

// Buffers is the part of Window a Reader needs: the editors' text.
type Buffers interface {
	// Buffer returns the editor text of path when it is open in a tab, and
	// whether it differs from disk (unsaved). path is already confined.
	Buffer(ctx context.Context, path project.Path) (text string, open, dirty bool, err error)
}
