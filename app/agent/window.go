package agent

import (
	"context"

	"trestle/app/errdefs"
	"trestle/app/project"
	"trestle/app/workbench"
)

// The operations on the window's editors and panes; each needs a window.

// Open opens the project file name in the window's editor, or focuses its
// tab, with the caret on line (1-based; 0 leaves it), or selects
// line:column to endLine:endColumn when endLine is set. It returns the
// confined path.
func (a *Agent) Open(ctx context.Context, name string, line, column, endLine, endColumn int) (project.Path, error) {
	path, err := a.Path(name)
	if err != nil {
		return path, err
	}
	if line < 0 || column < 0 || endLine < 0 || endColumn < 0 {
		return path, errdefs.Errorf(errdefs.ErrInvalid, "line and column numbers start at 1")
	}
	if endLine == 0 {
		return path, a.cfg.Window.Open(ctx, path, line)
	}
	if line == 0 || endLine < line {
		return path, errdefs.Errorf(errdefs.ErrInvalid, "end_line %d needs a line at or before it (line is %d)", endLine, line)
	}
	return path, a.cfg.Window.SelectRange(ctx, path, line, max(column, 1), endLine, max(endColumn, 1))
}

// Selection is the active editor's path, the person's selected text and
// its range (the caret when nothing is selected); ErrNotFound without an
// editor.
func (a *Agent) Selection(ctx context.Context) (workbench.EditorSelection, error) {
	return a.cfg.Window.Selection(ctx)
}

// Output is the text of the window's "run" or "eval" pane, its last tail
// lines when tail > 0.
func (a *Agent) Output(ctx context.Context, pane string, tail int) (string, error) {
	if pane != "run" && pane != "eval" {
		return "", errdefs.Errorf(errdefs.ErrInvalid, "pane is %q; use \"run\" or \"eval\"", pane)
	}
	if tail < 0 {
		return "", errdefs.Errorf(errdefs.ErrInvalid, "tail_lines %d is negative", tail)
	}
	return a.cfg.Window.Output(ctx, pane, tail)
}
