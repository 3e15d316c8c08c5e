package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestFyneDoOnlyInMainThread: package ui reaches Fyne's main goroutine
// only through mainThread (mainthread.go), which knows when the window is
// closing; a fyne.Do anywhere else in the package would skip that check.
// The widget packages (review, editor, agent) get their way there from
// their host (the window's w.main.do), so they never call fyne.Do either.
func TestFyneDoOnlyInMainThread(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*.go", "review/*.go", "editor/*.go", "agent/*.go"} {
		matched, err := filepath.Glob(pattern)
		if err != nil || len(matched) == 0 {
			t.Fatalf("no Go files match %s (%v): the guard would check nothing there", pattern, err)
		}
		files = append(files, matched...)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "mainthread.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "fyne" && (sel.Sel.Name == "Do" || sel.Sel.Name == "DoAndWait") {
				t.Errorf("%s: fyne.%s outside mainthread.go: go through the window's mainThread (w.onMain, w.main.call, w.main.after; a widget package through its host's Do)",
					fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}

// TestNoMutablePackageState: package ui and its widget packages (review,
// editor, agent) keep their UI state in the window, the widget or the part
// owning it, never in a package-level variable. The few package-level
// variables are values that never change: errors, patterns, icons, tables
// of constants, and the write hook save tests replace.
func TestNoMutablePackageState(t *testing.T) {
	allowed := map[string]bool{ // package/name
		"ui/writeTemp": true, "ui/errChangedOnDisk": true, "ui/undoRenameKey": true, "ui/ErrProjectOpen": true, "ui/ErrProjectRaised": true,
		"ui/changeSetRef": true, "ui/bellIcon": true, "ui/fileRef": true, "ui/unsavedChoices": true, "ui/textColors": true,
		"editor/gitMarkRune": true, // the gutter's marks, by git status
		"agent/known":        true, // the agents the pane knows (a copy through Known)
	}
	for _, pkg := range []struct{ name, pattern string }{
		{"ui", "*.go"}, {"review", "review/*.go"}, {"editor", "editor/*.go"}, {"agent", "agent/*.go"},
	} {
		files, err := filepath.Glob(pkg.pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files match %s (%v): the guard would check nothing there", pkg.pattern, err)
		}
		fset := token.NewFileSet()
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				for _, s := range g.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						if !allowed[pkg.name+"/"+n.Name] && n.Name != "_" {
							t.Errorf("%s: package-level variable %s: keep UI state in the window, the widget or the part that owns it (a setting tests change: a field with its default)",
								fset.Position(n.Pos()), n.Name)
						}
					}
				}
			}
		}
	}
}
