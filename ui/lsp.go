package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/lsp"
	"trestle/app/textbuf"
)

// The window's side of gopls: it links each Go editor to the project's
// language server (editor_lsp.go), shows the server's state in the status
// bar, feeds gopls's diagnostics to the editors and the Problems pane,
// opens definitions, lists references, formats on save and offers to
// install gopls when it is missing.

// formatTimeout bounds format on save: past it the file is saved as is.
const formatTimeout = 3 * time.Second

// goplsView is the window's link to gopls. Main goroutine only.
type goplsView struct {
	client     *lsp.Client
	installDir string // where "Install gopls" puts it; "" offers no install
	offered    bool   // the install was offered once already
	// renames is the last F2 rename, for Undo Rename (lsp_rename.go).
	renames renameState
	// refs and outline are the References and Outline panes, made on first use.
	refs, outline *placesPane
	// do runs fn on the main goroutine: fyne.Do; tests queue it, since
	// Fyne's test driver would run it on the calling goroutine. After
	// stopGopls it drops fn: once the window has closed, Fyne would run it
	// on gopls's goroutine.
	do      func(fn func())
	stopped atomic.Bool
}

// StopGopls drops gopls's callbacks from now on: the window is closing.
// Its OnClosed calls it; a quit that skips OnClosed (a signal, which Fyne
// also catches and quits on at once) must call it first, from any
// goroutine: once Fyne's loop has stopped, fyne.Do runs its function on
// the caller's goroutine. Safe for concurrent use after SetServices.
func (w *Window) StopGopls() {
	if w.gopls != nil {
		w.gopls.stopped.Store(true)
	}
}

// SetGoplsInstall names the per-user folder the window installs gopls into
// when it is missing. Main goroutine only, before SetServices.
func (w *Window) SetGoplsInstall(dir string) {
	w.goplsInstallDir = dir
}

// startGopls links the window to client. Main goroutine only.
func (w *Window) startGopls(client *lsp.Client) {
	g := &goplsView{client: client, installDir: w.goplsInstallDir}
	main := w.goplsDo
	if main == nil {
		main = fyne.Do
	}
	g.do = func(fn func()) {
		if g.stopped.Load() {
			return
		}
		main(func() {
			if !g.stopped.Load() {
				fn()
			}
		})
	}
	w.gopls = g
	w.tabs.onOpened = w.goplsEditorOpened
	w.tabs.onClosed = func(t *fileTab) {
		if t.view != nil && t.view.intel != nil {
			t.view.intel.detach() // stops its timers and closes the document in gopls
		}
	}
	client.Listen(func(s lsp.Status) {
		g.do(func() { w.goplsStatus(s) })
	}, func(path string) {
		ds := client.Diagnostics(path)
		ds = onlyFile(ds, path)
		g.do(func() { w.goplsDiagnostics(path, ds) })
	})
	for _, t := range w.tabs.byItem { // editors opened before the services came
		if t.view != nil && t.view.intel == nil {
			w.goplsEditorOpened(t, t.view)
		}
	}
}

// onlyFile keeps the diagnostics of path itself (Diagnostics takes a prefix).
func onlyFile(ds []lsp.Diagnostic, path string) []lsp.Diagnostic {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Path == path {
			out = append(out, d)
		}
	}
	return out
}

// goplsEditorOpened links a new Go editor to gopls and wraps its save with
// format on save.
func (w *Window) goplsEditorOpened(t *fileTab, e *editor) {
	g := w.gopls
	if g == nil || !isGoFile(t.path) {
		return
	}
	if old := t.view; old != nil && old != e && old.intel != nil {
		old.intel.stop() // replaced (a change set applied): the new editor speaks for the file
	}
	g.client.Start() // the first Go editor starts gopls
	in := attachIntel(e, t.path, g.client)
	in.async, in.do = func(fn func()) { w.loading.Go(fn) }, g.do
	in.onDefinition = w.goToDefinition
	in.onReferences = w.findReferences
	in.onOutline = w.showOutline
	in.onRename = w.renameAt
	in.setDiagnostics(onlyFile(g.client.Diagnostics(t.path), t.path))
	save := e.onSave
	e.onSave = func() { w.formatThenSave(e, t.path, save) }
}

// goplsStatus shows the server's state, and offers the install once when
// gopls is missing.
func (w *Window) goplsStatus(s lsp.Status) {
	text := "gopls: " + string(s.State)
	if s.State == lsp.StateFailed || s.State == lsp.StateRestarting {
		if s.Missing {
			text = "gopls: not installed"
		}
	}
	w.status.gopls.SetText(text)
	if s.Missing {
		w.offerGoplsInstall(s.Detail)
	} else if s.State == lsp.StateFailed {
		w.status.notify("gopls: " + s.Detail)
	}
}

// goplsDiagnostics shows path's diagnostics in its editor and in the
// Problems pane.
func (w *Window) goplsDiagnostics(path string, ds []lsp.Diagnostic) {
	if t := w.tabs.find(path); t != nil && t.view != nil && t.view.intel != nil {
		t.view.intel.setDiagnostics(ds)
	}
	probs := make([]Problem, 0, len(ds))
	for _, d := range ds {
		probs = append(probs, Problem{Path: d.Path, Line: d.Range.Start.Line, Col: d.Range.Start.Col,
			Message: d.Message, Source: diagSource(d)})
	}
	w.panes.problems.setLive(path, probs)
}

// setLive replaces gopls's problems for path.
func (p *problemsPane) setLive(path string, items []Problem) {
	if p.live == nil {
		p.live = map[string][]Problem{}
	}
	if len(items) == 0 {
		delete(p.live, path)
	} else {
		p.live[path] = items
	}
	p.set(p.run)
}

// liveItems are gopls's problems, by path.
func (p *problemsPane) liveItems() []Problem {
	paths := make([]string, 0, len(p.live))
	for path := range p.live {
		paths = append(paths, path)
	}
	sortStrings(paths)
	var out []Problem
	for _, path := range paths {
		out = append(out, p.live[path]...)
	}
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// goToDefinition opens the declaration of the identifier at pos in path.
func (w *Window) goToDefinition(path string, pos lsp.Position) {
	client, do := w.gopls.client, w.gopls.do
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
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
				w.openAtPos(l.Path, l.Range.Start.Line, l.Range.Start.Col)
			}
		})
	})
}

// openAtPos opens rel with the caret at line and col (1-based).
func (w *Window) openAtPos(rel string, line, col int) {
	if t := w.tabs.find(rel); t != nil {
		w.tabs.show(loaded{path: rel}, line)
		if t.view != nil {
			t.view.setCaret(textbuf.Pos{Line: line - 1, Col: col - 1}, false)
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
				t.view.setCaret(textbuf.Pos{Line: line - 1, Col: col - 1}, false)
			}
		})
	})
}

// findReferences lists the uses of the identifier at pos in the
// References pane.
func (w *Window) findReferences(path string, pos lsp.Position) {
	client, do := w.gopls.client, w.gopls.do
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
		defer cancel()
		locs, err := client.References(ctx, path, pos, true)
		do(func() {
			if err != nil {
				w.status.notify("find references: " + err.Error())
				return
			}
			w.showReferences(fmt.Sprintf("%s:%d:%d", path, pos.Line, pos.Col), locs)
		})
	})
}

// placesPane lists places (the last find-references result, or the
// active file's outline); a click opens one. Main goroutine only.
type placesPane struct {
	title  string
	places []place
	list   *widget.List
	tab    *container.TabItem
}

// place is one line of a places pane.
type place struct {
	label     string
	path      string // project-relative; absolute ones are listed but not opened
	line, col int
}

// showPlaces fills the pane named name (creating its tab the first time)
// and brings it forward.
func (w *Window) showPlaces(pane **placesPane, name, title string, places []place) {
	if *pane == nil {
		r := &placesPane{}
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
				w.openAtPos(p.path, p.line, p.col)
			}
		}
		r.tab = container.NewTabItem(name, r.list)
		w.panes.tabs.Append(r.tab)
		*pane = r
	}
	r := *pane
	r.title, r.places = title, places
	r.list.Refresh()
	w.panes.tabs.Select(r.tab)
}

func (w *Window) showReferences(from string, locs []lsp.Location) {
	places := make([]place, 0, len(locs))
	for _, l := range locs {
		places = append(places, place{label: fmt.Sprintf("%s:%d:%d", l.Path, l.Range.Start.Line, l.Range.Start.Col),
			path: l.Path, line: l.Range.Start.Line, col: l.Range.Start.Col})
	}
	w.showPlaces(&w.gopls.refs, "References", fmt.Sprintf("%d references to the symbol at %s", len(locs), from), places)
}

// showOutline lists the declarations of path (Ctrl+Shift+O).
func (w *Window) showOutline(path string) {
	client, do := w.gopls.client, w.gopls.do
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), intelTimeout)
		defer cancel()
		syms, err := client.DocumentSymbols(ctx, path)
		do(func() {
			if err != nil {
				w.status.notify("outline: " + err.Error())
				return
			}
			places := make([]place, 0, len(syms))
			for _, s := range syms {
				indent := ""
				if s.Container != "" {
					indent = "    "
				}
				places = append(places, place{label: fmt.Sprintf("%s%s %s  %s  (line %d)", indent, s.Kind, s.Name, s.Detail, s.Line),
					path: path, line: s.Line, col: s.Col})
			}
			w.showPlaces(&w.gopls.outline, "Outline", fmt.Sprintf("%s: %d declarations", path, len(syms)), places)
		})
	})
}

// formatThenSave formats e's text with gopls (gofmt and organized
// imports), when the setting is on and gopls answers in time, then saves.
// A format that comes back after the person typed on is dropped.
func (w *Window) formatThenSave(e *editor, path string, save func()) {
	g := w.gopls
	if g == nil || !w.settings.FormatOnSave || e.intel == nil || save == nil {
		if save != nil {
			save()
		}
		return
	}
	version, text := e.version, e.buf.FileText()
	g.client.OpenDocument(path, text)
	var once sync.Once
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), formatTimeout)
		defer cancel()
		formatted, err := g.client.Format(ctx, path)
		g.do(func() {
			once.Do(func() {
				if err == nil && e.version == version && formatted != text {
					e.replaceAll(formatted)
				} else if err != nil {
					w.status.notify("saved without formatting: " + err.Error())
				}
				save()
			})
		})
	})
}

// replaceAll makes the text text as one undoable edit of the span that
// differs, so the view and the caret's line stay where they were.
func (e *editor) replaceAll(text string) {
	caret := e.caret
	cur, want := e.buf.Text(), strings.ReplaceAll(text, "\r\n", "\n")
	if cur == want {
		return
	}
	p := 0
	for p < len(cur) && p < len(want) && cur[p] == want[p] {
		p++
	}
	for p > 0 && !utf8.RuneStart(cur[p]) {
		p--
	}
	q := 0 // bytes equal at the end, not overlapping the prefix
	for q < len(cur)-p && q < len(want)-p && cur[len(cur)-1-q] == want[len(want)-1-q] {
		q++
	}
	for q > 0 && !utf8.RuneStart(cur[len(cur)-q]) {
		q--
	}
	e.buf.Seal()
	e.selectRange(textbuf.Range{Start: posOfOffset(cur, p), End: posOfOffset(cur, len(cur)-q)})
	e.replaceSelection(want[p : len(want)-q])
	e.buf.Seal()
	e.setCaret(caret, false)
}

// posOfOffset is the position of byte offset off in text.
func posOfOffset(text string, off int) textbuf.Pos {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndexByte(text[:off], '\n') + 1
	return textbuf.Pos{Line: line, Col: utf8.RuneCountInString(text[start:off])}
}

// offerGoplsInstall asks once whether to install the pinned gopls into the
// per-user folder, and installs it with its output in the Run pane.
func (w *Window) offerGoplsInstall(detail string) {
	g := w.gopls
	if g.offered {
		return
	}
	g.offered = true
	if g.installDir == "" {
		w.status.notify(detail)
		return
	}
	msg := fmt.Sprintf("gopls, the Go language server, is not installed, so there are no type errors while you\n"+
		"type, no go to definition and no completion.\n\nInstall gopls %s into %s now?\n(go install golang.org/x/tools/gopls@%s)",
		lsp.GoplsVersion, g.installDir, lsp.GoplsVersion)
	dialog.ShowConfirm("Install gopls?", msg, func(ok bool) {
		if ok {
			w.installGopls()
		}
	}, w.win)
}

func (w *Window) installGopls() {
	g := w.gopls
	w.panes.run.clear()
	w.panes.run.append("$ go install golang.org/x/tools/gopls@" + lsp.GoplsVersion)
	w.panes.tabs.Select(w.panes.runTab)
	w.status.gopls.SetText("gopls: installing")
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		err := lsp.Install(ctx, g.installDir, runPaneWriter{w})
		fyne.Do(func() {
			if err != nil {
				w.panes.run.append("[" + err.Error() + "]")
				w.status.gopls.SetText("gopls: not installed")
				return
			}
			w.panes.run.append("[gopls installed]")
			g.client.Retry()
		})
	})
}

// runPaneWriter sends an installer's output to the Run pane, a line at a time.
type runPaneWriter struct{ w *Window }

func (r runPaneWriter) Write(b []byte) (int, error) {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	fyne.Do(func() { r.w.panes.run.append(lines...) })
	return len(b), nil
}
