package ui

import (
	"context"
	"fmt"

	"trestle/app/errdefs"
	"trestle/app/project"
	"trestle/app/textbuf"
	"trestle/app/workbench"
)

// The person's selection and caret, for the tools: what is selected in the
// active editor, selecting a range in a file, where the caret is.

// Selection returns the active editor's path, selected text and range.
// With no editor open it is an error wrapping errdefs.ErrNotFound. Safe for
// concurrent use; busy after DefaultCallBound.
func (w *Window) Selection(ctx context.Context) (workbench.EditorSelection, error) {
	var sel workbench.EditorSelection
	var ok bool
	err := w.main.call(ctx, 0, func() { sel, ok = w.tabs.selection() })
	if err == nil && !ok {
		err = fmt.Errorf("selection: no editor is open: %w", errdefs.ErrNotFound)
	}
	return sel, err
}

// SelectRange opens rel (or focuses its tab) and selects from startLine,
// startCol to endLine, endCol (1-based, columns in runes, clamped to the
// text), scrolling the selection into view. Errors are those of Open, and
// errdefs.ErrInvalid for a file shown as a notice. Safe for concurrent use;
// busy after DefaultCallBound.
func (w *Window) SelectRange(ctx context.Context, path project.Path, startLine, startCol, endLine, endCol int) error {
	f, err := loadPath(w.project, path)
	if err != nil {
		return err
	}
	r := textbuf.Range{
		Start: textbuf.Pos{Line: startLine - 1, Col: startCol - 1},
		End:   textbuf.Pos{Line: endLine - 1, Col: endCol - 1},
	}
	var shown bool
	if err := w.main.call(ctx, 0, func() { shown = w.tabs.selectRange(f, r) }); err != nil {
		return err
	}
	if !shown {
		return fmt.Errorf("select in %s: the file is not shown as text: %w", f.path, errdefs.ErrInvalid)
	}
	return nil
}

// caretPosition returns the active editor's caret line and column
// (1-based, columns in runes), or 0, 0 with no editor. It must be called
// on the main goroutine.
func (a *tabArea) caretPosition() (line, col int) {
	if e := a.activeEditor(); e != nil {
		return e.Caret().Line + 1, e.Caret().Col + 1
	}
	return 0, 0
}

// selection describes the active editor's selection for the tools.
func (a *tabArea) selection() (workbench.EditorSelection, bool) {
	t := a.current()
	if t == nil || t.view == nil {
		return workbench.EditorSelection{}, false
	}
	sel := t.view.Selection()
	return workbench.EditorSelection{
		Path: t.path, Text: t.view.SelectedText(),
		StartLine: sel.Start.Line + 1, StartCol: sel.Start.Col + 1,
		EndLine: sel.End.Line + 1, EndCol: sel.End.Col + 1,
	}, true
}

// selectRange shows f and selects r in it, reporting false when f is a
// notice.
func (a *tabArea) selectRange(f loaded, r textbuf.Range) bool {
	a.show(f, 0)
	t := a.find(f.path)
	if t == nil || t.view == nil {
		return false
	}
	t.view.SelectRange(r)
	t.view.CentreCaret()
	return true
}
