package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"trestle/app/lsp"
	"trestle/app/project"
	"trestle/app/textbuf"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Going where gopls points: a definition opens in its editor, references
// and the outline list in their panes, and a click on a listed place
// opens it. Main goroutine only, except the questions to gopls, which run
// on the window's loading group.

// gotoUI is the window's part for going where gopls points: definitions,
// the References and Outline panes (kept in the gopls part), and opening a
// listed place. It reaches the window's tabs, panes and gopls part through
// w. Main goroutine only.
type gotoUI struct{ w *Window }

// definition opens the declaration of the identifier at pos in path.
func (pl *gotoUI) definition(path string, pos lsp.Position) {
	w := pl.w
	client, do := w.gopls.client, w.gopls.do
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), goplsTimeout)
		defer cancel()
		locs, err := client.Definition(ctx, path, pos)
		do(func() {
			switch {
			case err != nil:
				w.status.notify("go to definition: " + err.Error())
			case len(locs) == 0:
				w.status.notify("no definition here")
			case filepath.IsAbs(locs[0].Path):
				l := locs[0]
				w.status.notify(fmt.Sprintf("defined outside the project: %s:%d", l.Path, l.Range.Start.Line))
			default:
				l := locs[0]
				w.nav.rememberHere() // Alt+Left comes back
				pl.openAt(l.Path, l.Range.Start.Line, l.Range.Start.Col)
			}
		})
	})
}

// openAt opens rel with the caret at line and col (1-based).
func (pl *gotoUI) openAt(rel string, line, col int) {
	w := pl.w
	if t := w.tabs.find(rel); t != nil {
		w.tabs.show(loaded{path: rel}, line)
		if t.view != nil {
			t.view.SetCaret(textbuf.Pos{Line: line - 1, Col: col - 1})
		}
		return
	}
	do := w.gopls.do
	w.loading.Go(func() {
		f, err := loadFile(w.project, rel)
		do(func() {
			if err != nil {
				w.status.notify(err.Error())
				return
			}
			w.tabs.show(f, line)
			if t := w.tabs.find(rel); t != nil && t.view != nil {
				t.view.SetCaret(textbuf.Pos{Line: line - 1, Col: col - 1})
			}
		})
	})
}

// references lists the uses of the identifier at pos in the
// References pane.
func (pl *gotoUI) references(path string, pos lsp.Position) {
	w := pl.w
	client, do := w.gopls.client, w.gopls.do
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), goplsTimeout)
		defer cancel()
		locs, err := client.References(ctx, path, pos, true)
		disk := diskLines(w.project, locs)
		do(func() {
			if err != nil {
				w.status.notify("find references: " + err.Error())
				return
			}
			pl.showReferences(fmt.Sprintf("%s:%d:%d", path, pos.Line, pos.Col), locs, disk)
		})
	})
}

// placesPane lists places (the last find-references result, or the
// active file's outline); a click opens one. Main goroutine only.
type placesPane struct {
	name   string // its tab's title
	title  string
	places []place
	list   *widget.List
}

func (r *placesPane) paneTitle() string                 { return r.name }
func (r *placesPane) paneContent() fyne.CanvasObject    { return r.list }
func (r *placesPane) paneFocus() fyne.Focusable         { return nil }
func (r *placesPane) agentText(int) (name, text string) { return "", "" }

// place is one line of a places pane.
type place struct {
	label     string
	path      string // project-relative; absolute ones are listed but not opened
	line, col int
}

// newPlacesPane is a places pane titled name; a click on a project file's
// place opens it (open).
func newPlacesPane(name string, open func(rel string, line, col int)) *placesPane {
	r := &placesPane{name: name}
	r.list = widget.NewList(func() int { return len(r.places) + 1 },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id == 0 {
				o.(*widget.Label).SetText(r.title)
				return
			}
			o.(*widget.Label).SetText(r.places[id-1].label)
		})
	r.list.OnSelected = func(id widget.ListItemID) {
		r.list.Unselect(id)
		if id == 0 || id > len(r.places) {
			return
		}
		if p := r.places[id-1]; !filepath.IsAbs(p.path) {
			open(p.path, p.line, p.col)
		}
	}
	return r
}

// set lists places under title.
func (r *placesPane) set(title string, places []place) {
	r.title, r.places = title, places
	r.list.Refresh()
}

// showReferences lists locs, each with its line of code: from the open
// editor (unsaved text included), else from disk (disk, read off the
// main goroutine by diskLines).
func (pl *gotoUI) showReferences(from string, locs []lsp.Location, disk map[string][]string) {
	w := pl.w
	places := make([]place, 0, len(locs))
	for _, l := range locs {
		line := l.Range.Start.Line
		code := ""
		if t := w.tabs.find(l.Path); t != nil && t.view != nil && line <= t.view.Buffer().LineCount() {
			code = t.view.Buffer().Line(line - 1)
		} else if lines := disk[l.Path]; line <= len(lines) {
			code = lines[line-1]
		}
		label := fmt.Sprintf("%s:%d:%d", l.Path, line, l.Range.Start.Col)
		if code = strings.TrimSpace(code); code != "" {
			label += "    " + ellipsize(code, maxPreviewRunes)
		}
		places = append(places, place{label: label, path: l.Path, line: line, col: l.Range.Start.Col})
	}
	title := fmt.Sprintf("%d references to the symbol at %s", len(locs), from)
	if len(locs) == 0 {
		title = "No references to the symbol at " + from
	}
	if w.gopls.refs == nil {
		w.gopls.refs = newPlacesPane("References", pl.openAt)
		w.panes.add(w.gopls.refs)
	}
	w.gopls.refs.set(title, places)
	w.panes.show(w.gopls.refs)
}

// maxPreviewRunes cuts a reference's line of code in the list.
const maxPreviewRunes = 120

// ellipsize cuts s to n runes, with an ellipsis when cut.
func ellipsize(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// diskLines reads the project files locs name, for their lines of code.
// It does file I/O: never on the main goroutine.
func diskLines(p *project.Project, locs []lsp.Location) map[string][]string {
	out := map[string][]string{}
	for _, l := range locs {
		if _, done := out[l.Path]; done || filepath.IsAbs(l.Path) {
			continue
		}
		out[l.Path] = nil
		if f, err := p.ReadFile(l.Path); err == nil {
			out[l.Path] = strings.Split(f.Text, "\n")
		}
	}
	return out
}

// outline shows the declarations of path as a tree (Ctrl+Shift+O).
func (pl *gotoUI) outline(path string) {
	w := pl.w
	client, do := w.gopls.client, w.gopls.do
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), goplsTimeout)
		defer cancel()
		syms, err := client.DocumentSymbols(ctx, path)
		do(func() {
			if err != nil {
				w.status.notify("outline: " + err.Error())
				return
			}
			title := fmt.Sprintf("%s: %d declarations", path, len(syms))
			if len(syms) == 0 {
				title = path + " declares nothing"
			}
			if w.gopls.outline == nil {
				w.gopls.outline = newOutlinePane(pl.openAt)
				w.panes.add(w.gopls.outline)
			}
			w.gopls.outline.set(title, outlineOf(path, syms))
			w.panes.show(w.gopls.outline)
		})
	})
}

// outline is a file's declarations as a tree: places in gopls's order
// (each parent before its children) and the index of each one's parent,
// -1 at the top.
type outline struct {
	places []place
	parent []int
}

// outlineOf builds the outline of syms, gopls's symbols of path.
func outlineOf(path string, syms []lsp.Symbol) outline {
	o := outline{places: make([]place, 0, len(syms)), parent: make([]int, 0, len(syms))}
	for i, s := range syms {
		parent := -1
		for j := i - 1; j >= 0 && s.Container != ""; j-- { // the nearest one before it is its own
			if syms[j].Name == s.Container {
				parent = j
				break
			}
		}
		label := fmt.Sprintf("%s %s  %s  (line %d)", s.Kind, s.Name, s.Detail, s.Line)
		o.places = append(o.places, place{label: label, path: path, line: s.Line, col: s.Col})
		o.parent = append(o.parent, parent)
	}
	return o
}

// children returns the indexes of the places under parent (-1: the top).
func (o outline) children(parent int) []int {
	var out []int
	for i, p := range o.parent {
		if p == parent {
			out = append(out, i)
		}
	}
	return out
}

// outlinePane shows the last outline asked for as a tree, every branch
// open; a click on a declaration opens it. Main goroutine only.
type outlinePane struct {
	outline
	title   *widget.Label
	tree    *widget.Tree
	content fyne.CanvasObject
}

func (p *outlinePane) paneTitle() string                 { return "Outline" }
func (p *outlinePane) paneContent() fyne.CanvasObject    { return p.content }
func (p *outlinePane) paneFocus() fyne.Focusable         { return nil }
func (p *outlinePane) agentText(int) (name, text string) { return "", "" }

// newOutlinePane is the Outline pane; a click on a declaration opens it
// (open).
func newOutlinePane(open func(rel string, line, col int)) *outlinePane {
	p := &outlinePane{title: widget.NewLabel("")}
	id := func(uid widget.TreeNodeID) int {
		n, err := strconv.Atoi(uid)
		if err != nil {
			return -1
		}
		return n
	}
	p.tree = widget.NewTree(
		func(uid widget.TreeNodeID) []widget.TreeNodeID {
			var out []widget.TreeNodeID
			for _, c := range p.children(id(uid)) {
				out = append(out, strconv.Itoa(c))
			}
			return out
		},
		func(uid widget.TreeNodeID) bool { return uid == "" || len(p.children(id(uid))) > 0 },
		func(bool) fyne.CanvasObject { return widget.NewLabel("") },
		func(uid widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
			if i := id(uid); i >= 0 && i < len(p.places) {
				o.(*widget.Label).SetText(p.places[i].label)
			}
		})
	p.tree.OnSelected = func(uid widget.TreeNodeID) {
		p.tree.Unselect(uid)
		if i := id(uid); i >= 0 && i < len(p.places) {
			open(p.places[i].path, p.places[i].line, p.places[i].col)
		}
	}
	p.content = container.NewBorder(p.title, nil, nil, nil, p.tree)
	return p
}

// set shows o under title, every branch open.
func (p *outlinePane) set(title string, o outline) {
	p.outline = o
	p.title.SetText(title)
	p.tree.Refresh()
	p.tree.OpenAllBranches()
}
