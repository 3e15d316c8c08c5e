package ui

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"trestle/app/lsp"
	"trestle/ui/editor"
)

// The window's side of gopls: it links each Go editor to the project's
// language server (ui/editor's editor_lsp.go), shows the server's state in the status
// bar, feeds gopls's diagnostics to the editors and the Problems pane,
// opens definitions, lists references, formats on save and offers to
// install gopls when it is missing.

// formatTimeout bounds format on save: past it the file is saved as is.
const formatTimeout = 3 * time.Second

// goplsTimeout bounds one question the window asks gopls (definition,
// references, outline), as the editor bounds its own.
const goplsTimeout = 5 * time.Second

// goplsUI is the window's gopls part: it links the editors to the
// project's language server, shows the server's state and diagnostics,
// formats on save, holds the Edit menu's Go commands (lsp_commands.go) and
// the install of a missing gopls (lsp_install.go). It is made with the
// window; client is nil until start (a window without gopls keeps it nil).
// Main goroutine only, except stop.
type goplsUI struct {
	w          *Window
	client     *lsp.Client
	installDir string // Options.GoplsInstall: where "Install gopls" puts it; "" offers no install
	offered    bool   // the install was offered once already
	// renames is the last F2 rename, for Undo Rename (lsp_rename.go).
	renames renameState
	// refs and outline are the References and Outline panes, made on first use.
	refs    *placesPane
	outline *outlinePane
	// do runs fn on the main goroutine through mainDo (nil: the window's
	// onMain; tests queue it, since Fyne's test driver would run it on the
	// calling goroutine). After stop it drops fn: once the window has
	// closed, Fyne would run it on gopls's goroutine. Set by start.
	do      func(fn func())
	mainDo  func(fn func())
	stopped atomic.Bool
	// formatBound bounds format on save; 0 means formatTimeout (tests on
	// a busy machine raise it: past it the file is saved unformatted).
	formatBound time.Duration
}

// stop drops gopls's callbacks from now on: the window is closing.
// Quitting calls it; a quit that skips OnClosed (a signal, which Fyne
// also catches and quits on at once) must call it first, from any
// goroutine: once Fyne's loop has stopped, fyne.Do runs its function on
// the caller's goroutine. Safe for concurrent use.
func (g *goplsUI) stop() { g.stopped.Store(true) }

// start links the window to client. Main goroutine only.
func (g *goplsUI) start(client *lsp.Client) {
	w := g.w
	g.client = client
	main := g.mainDo
	if main == nil {
		main = w.main.do
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
	w.tabs.format = g.formatThenSave
	w.tabs.onOpened = g.editorOpened
	w.tabs.onClosed = func(t *fileTab) {
		if t.view != nil {
			t.view.DetachIntel() // stops its timers and closes the document in gopls
		}
	}
	client.Listen(func(s lsp.Status) {
		g.do(func() { g.showStatus(s) })
	}, func(path string) {
		ds := client.Diagnostics(path)
		ds = onlyFile(ds, path)
		g.do(func() { g.showDiagnostics(path, ds) })
	})
	for _, t := range w.tabs.byItem { // editors opened before the services came
		if t.view != nil && !t.view.HasIntel() {
			g.editorOpened(t, t.view)
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

// editorOpened links a new Go editor to gopls (its saves format
// through the tabs' format, formatThenSave).
func (g *goplsUI) editorOpened(t *fileTab, e *editor.Editor) {
	if g.client == nil || !editor.IsGoFile(t.path) {
		return
	}
	if old := t.view; old != nil && old != e {
		old.StopIntel() // replaced (a change set applied): the new editor speaks for the file
	}
	g.client.Start() // the first Go editor starts gopls
	e.AttachIntel(t.path, g.client, goplsHost{w: g.w, do: g.do})
	e.SetDiagnostics(onlyFile(g.client.Diagnostics(t.path), t.path))
}

// goplsHost is the window as its editors' link to the rest of the
// workbench (editor.Host): navigation opens tabs and panes, work runs on
// the window's loading group and comes back through the gopls part's do.
type goplsHost struct {
	w  *Window
	do func(fn func())
}

func (h goplsHost) Definition(path string, pos lsp.Position) { h.w.goTo.definition(path, pos) }
func (h goplsHost) References(path string, pos lsp.Position) { h.w.goTo.references(path, pos) }
func (h goplsHost) Outline(path string)                      { h.w.goTo.outline(path) }
func (h goplsHost) Rename(path string, pos lsp.Position, current string) {
	h.w.renamer.at(path, pos, current)
}
func (h goplsHost) Go(fn func()) { h.w.loading.Go(fn) }
func (h goplsHost) Do(fn func()) { h.do(fn) }

// showStatus shows the server's state, and offers the install once when
// gopls is missing.
func (g *goplsUI) showStatus(s lsp.Status) {
	w := g.w
	text := "gopls: " + string(s.State)
	if s.State == lsp.StateFailed || s.State == lsp.StateRestarting {
		if s.Missing {
			text = "gopls: not installed"
		}
	}
	w.status.gopls.SetText(text)
	if s.Missing {
		g.offerInstall(s.Detail)
	} else if s.State == lsp.StateFailed {
		w.status.notify("gopls: " + s.Detail)
	}
}

// showDiagnostics shows path's diagnostics in its editor and in the
// Problems pane.
func (g *goplsUI) showDiagnostics(path string, ds []lsp.Diagnostic) {
	w := g.w
	if t := w.tabs.find(path); t != nil && t.view != nil {
		t.view.SetDiagnostics(ds)
	}
	probs := make([]Problem, 0, len(ds))
	for _, d := range ds {
		probs = append(probs, Problem{Path: d.Path, Line: d.Range.Start.Line, Col: d.Range.Start.Col,
			Message: d.Message, Source: editor.DiagnosticSource(d)})
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

// formatThenSave formats t's text with gopls (gofmt and organized
// imports), when the setting is on and gopls answers in time, then calls
// write. It is the tabs' format (tabs.go's save), so every save formats.
// A format that comes back after the person typed on is dropped.
func (g *goplsUI) formatThenSave(t *fileTab, write func()) {
	w, e := g.w, t.view
	if g.client == nil || !w.settings.FormatOnSave || e == nil || !e.HasIntel() || !editor.IsGoFile(t.path) {
		write()
		return
	}
	version, snap := e.Version(), e.Buffer().Snapshot() // joined off the main goroutine
	e.SyncIntel()
	var once sync.Once
	w.loading.Go(func() {
		bound := g.formatBound
		if bound == 0 {
			bound = formatTimeout
		}
		ctx, cancel := context.WithTimeout(context.Background(), bound)
		defer cancel()
		formatted, err := g.client.Format(ctx, t.path)
		changed := err == nil && formatted != snap.FileText()
		g.do(func() {
			once.Do(func() {
				if changed && e.Version() == version {
					e.ReplaceAll(formatted)
				} else if err != nil {
					w.status.notify("saved without formatting: " + err.Error())
				}
				write()
			})
		})
	})
}
