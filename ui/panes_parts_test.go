package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// TestPanesAreParts: every bottom tab is a registered pane, each title
// once; the View menu offers "<title> Pane" for each and its command
// shows the pane with the keyboard in its focus target; agents read the
// Run and Eval panes by the names their panes give.
func TestPanesAreParts(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	if got, want := len(w.panes.tabs.Items), len(w.panes.all); got != want || want != len(paneParts()) {
		t.Fatalf("%d tabs, %d registered panes, %d in paneParts; want them equal", got, want, len(paneParts()))
	}
	titles := map[string]bool{}
	view := map[string]*fyne.MenuItem{}
	for _, m := range w.win.MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == "View" {
				view[it.Label] = it
			}
		}
	}
	for i, p := range w.panes.all {
		title := p.paneTitle()
		if titles[title] {
			t.Errorf("two panes titled %q", title)
		}
		titles[title] = true
		if it := w.panes.tabs.Items[i]; it != w.panes.item(p) || it.Text != title {
			t.Errorf("tab %d is %q, want pane %q's", i, it.Text, title)
		}
		item := view[title+" Pane"]
		if item == nil {
			t.Errorf("the View menu has no %q", title+" Pane")
			continue
		}
		item.Action()
		if w.panes.selected() != p {
			t.Errorf("View › %s Pane shows %v", title, w.panes.selected())
		}
		if want := focusTarget(p); want != nil && w.win.Canvas().Focused() != want {
			t.Errorf("View › %s Pane: the keyboard is in %T, want %T", title, w.win.Canvas().Focused(), want)
		}
	}
	for _, name := range []string{"run", "eval"} {
		if p := w.panes.readable(name); p == nil {
			t.Errorf("no pane agents read as %q", name)
		}
	}
}

// TestBottomTabsOnlyThroughPanes: a bottom tab is made only by panes.add,
// from a pane's title, so a title is said once, by its pane.
func TestBottomTabsOnlyThroughPanes(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "panes.go" || name == "tabs.go" { // tabs.go: the editor's tabs
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if n.Sel.Name == "NewTabItem" || n.Sel.Name == "NewTabItemWithIcon" {
					t.Errorf("%s: a tab made outside panes.add: register a pane in paneParts", fset.Position(n.Pos()))
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Append" || sel.Sel.Name == "Select") {
					if inner, ok := sel.X.(*ast.SelectorExpr); ok && inner.Sel.Name == "tabs" {
						if x, ok := inner.X.(*ast.SelectorExpr); ok && x.Sel.Name == "panes" {
							t.Errorf("%s: panes.tabs.%s outside panes.go: use panes.add or panes.show", fset.Position(n.Pos()), sel.Sel.Name)
						}
					}
				}
			}
			return true
		})
	}
}
