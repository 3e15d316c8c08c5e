package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"trestle/app/changeset"
	"trestle/app/store"
	"trestle/internal/testfix"
	"trestle/ui/review"
)

// What makes the window's start cheap must not change what it shows.

// TestPaneTabsShowEveryPaneAtStart: the panes are put in the tab bar
// without drawing it once per pane (panes.append), and a pane added after
// it was drawn (panes.add) still gets its tab: the bar the window draws
// names every pane, the first one is shown, and the View menu still shows
// each pane.
func TestPaneTabsShowEveryPaneAtStart(t *testing.T) {
	w := newTestWindow(t)
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(2400, 720)) // room for every tab in the bar
	w.panes.add(newAgentsPane())          // as showChangeSets adds the Change Sets pane, after the bar was drawn
	bar := drawnTexts(w.panes.tabs)
	for _, p := range w.panes.all {
		if !strings.Contains(bar, "|"+p.paneTitle()+"|") {
			t.Errorf("the tab bar shows %s; no tab for the %s pane", bar, p.paneTitle())
		}
	}
	if n := strings.Count(bar, "|Agents|"); n != 2 {
		t.Errorf("the tab bar shows %s: %d Agents tabs, want 2 (one added late)", bar, n)
	}
	if got := w.panes.selected(); got != w.panes.all[0] {
		t.Errorf("the %s pane is shown at start, want the first, %s", got.paneTitle(), w.panes.all[0].paneTitle())
	}
	for _, m := range w.win.MainMenu().Items {
		for _, it := range m.Items {
			if m.Label == "View" && it.Label == "Search Pane" {
				it.Action()
			}
		}
	}
	if w.panes.selected() != w.panes.search || w.win.Canvas().Focused() != w.panes.search.pattern {
		t.Errorf("View ▸ Search Pane: pane %T shown, keyboard in %T", w.panes.selected(), w.win.Canvas().Focused())
	}
}

// TestEvalInputHintOnceItHasAWidth: the Eval input's placeholder is set
// once the input has a width (set before, it was wrapped at width 0, a
// line per character); the window shows it as soon as the pane is laid out.
func TestEvalInputHintOnceItHasAWidth(t *testing.T) {
	test.NewTempApp(t)
	e := newEvalPane()
	if e.input.PlaceHolder != "" {
		t.Errorf("placeholder %q set before the input has a width", e.input.PlaceHolder)
	}
	w := test.NewWindow(e.paneContent())
	defer w.Close()
	w.Resize(fyne.NewSize(600, 200))
	if !strings.HasPrefix(e.input.PlaceHolder, "Go to evaluate") {
		t.Errorf("placeholder %q once laid out, want the Eval pane's hint", e.input.PlaceHolder)
	}
	if texts := drawnTexts(e.paneContent()); !strings.Contains(texts, "Go to evaluate") {
		t.Errorf("the input draws %s, not its hint", texts)
	}
	tw := newTestWindow(t) // the window's own Eval pane, shown first
	if !strings.HasPrefix(tw.panes.eval.input.PlaceHolder, "Go to evaluate") {
		t.Errorf("the window's Eval input has placeholder %q", tw.panes.eval.input.PlaceHolder)
	}
}

// drawnTexts is every text o draws (a pane's tab titles among them), each
// between bars.
func drawnTexts(o fyne.CanvasObject) string {
	texts := "|"
	for _, x := range test.LaidOutObjects(o) {
		if txt, ok := x.(*canvas.Text); ok {
			texts += txt.Text + "|"
		}
	}
	return texts
}

// TestLoadFontsThenNew: LoadFonts loads the first frame's fonts on its own
// goroutine and says when it is done; New waits for it, then measures on
// the main goroutine alone (under -race: no use of a face by two).
func TestLoadFontsThenNew(t *testing.T) {
	a := test.NewTempApp(t)
	done := LoadFonts()
	testfix.Wait(t, time.Minute, "LoadFonts to finish", func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	})
	w := New(a, newProject(t, map[string]string{"go.mod": "module example.com/f\n"}), Options{Fonts: done})
	t.Cleanup(func() { closeNew(w) })
	if size := fyne.MeasureText("func", theme.TextSize(), fyne.TextStyle{Monospace: true}); size.Width <= 0 {
		t.Errorf("monospace text measures %v after LoadFonts", size)
	}
}

// TestNewShowsTheWindowWhileTheFontsLoad: New made with Options.Fonts
// shows Fyne's window before it waits for the fonts (Fyne makes its GL
// window and context when a window is first shown, which measures no
// text, so that runs while the fonts load), and shows it blank at the
// window's first size: no text is measured before the fonts are loaded.
// Once they are, New fills the window it showed.
func TestNewShowsTheWindowWhileTheFontsLoad(t *testing.T) {
	fonts := make(chan struct{})
	app := &showingApp{App: test.NewTempApp(t), fonts: fonts}
	// Should New wait for the fonts before it shows the window, nothing
	// would close them: say so rather than hang.
	late := time.AfterFunc(time.Minute, func() { app.loaded("the minute's bound, not Show") })
	defer late.Stop()
	w := New(app, newProject(t, map[string]string{"go.mod": "module example.com/f\n"}), Options{Fonts: fonts})
	t.Cleanup(func() { closeNew(w) })
	if len(app.shows) == 0 || app.by != "Show" {
		t.Fatalf("New waited for the fonts before it showed the window (they were loaded by %s; shown %d times)", app.by, len(app.shows))
	}
	if first := app.shows[0]; first.texts != "|" || first.size != fyne.NewSize(windowWidth, windowHeight) {
		t.Errorf("the window was first shown at %v drawing %s; want it blank at %vx%v", first.size, first.texts, windowWidth, windowHeight)
	}
	// The window's reads of the project update it from their own
	// goroutines under the test driver: wait for them before looking.
	w.loading.Wait()
	if content, ok := w.Window().Content().(*fyne.Container); !ok || !slices.Contains(content.Objects, w.status.bar) {
		t.Errorf("once the fonts loaded, the window shows %T, not the window's content (its status bar)", w.Window().Content())
	}
	if size := w.Window().Canvas().Size(); size != fyne.NewSize(windowWidth, windowHeight) {
		t.Errorf("the window is %v once filled, want %vx%v", size, windowWidth, windowHeight)
	}
}

// showingApp is a test app whose windows record each Show: what the
// window drew and its size then. The first Show loads the fonts (closes
// fonts), as LoadFonts would meanwhile.
type showingApp struct {
	fyne.App
	fonts chan struct{}
	once  sync.Once
	by    string // what loaded the fonts
	shows []shown
}

type shown struct {
	texts string
	size  fyne.Size
}

func (a *showingApp) NewWindow(title string) fyne.Window {
	return &showingWindow{Window: a.App.NewWindow(title), app: a}
}

// loaded closes the fonts once, by what says.
func (a *showingApp) loaded(by string) {
	a.once.Do(func() { a.by = by; close(a.fonts) })
}

type showingWindow struct {
	fyne.Window
	app *showingApp
}

func (w *showingWindow) Show() {
	w.app.shows = append(w.app.shows, shown{texts: drawnTexts(w.Content()), size: w.Canvas().Size()})
	w.Window.Show()
	w.app.loaded("Show")
}

// TestEmptyOutputDrawsNoCells: an empty output (the Eval transcript shown
// at start, the Run output) makes no grid cells: Fyne's TextGrid fills
// its room with cells, rows or not, and the empty transcript laid out and
// walked ~3,300 of them on every frame. The first line still shows, laid
// out at the pane's size, and a cleared run's output draws none again.
func TestEmptyOutputDrawsNoCells(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1200, 800))
	tr := w.panes.eval.transcript
	if w.panes.selected() != w.panes.eval || tr.box.Size().Width <= 0 {
		t.Fatalf("the Eval pane is not shown at start (pane %T, transcript %v)", w.panes.selected(), tr.box.Size())
	}
	if n, texts := shownCells(tr.box); n != 0 {
		t.Errorf("the empty Eval transcript draws %d cells: %.80s", n, texts)
	}
	tr.append(evalLine{text: "x := 1"})
	if _, texts := shownCells(tr.box); !strings.Contains(texts, "|x| |:|=| |1|") {
		t.Errorf("the transcript's first line is not drawn: %.200s", texts)
	}
	if tr.grid.Size() != tr.box.Size() {
		t.Errorf("the transcript's grid is %v in a pane of %v", tr.grid.Size(), tr.box.Size())
	}

	r := w.panes.runView
	w.panes.show(r)
	if n, texts := shownCells(r.out.box); n != 0 || r.out.box.Size().Width <= 0 {
		t.Errorf("the empty Run output (%v) draws %d cells: %.80s", r.out.box.Size(), n, texts)
	}
	r.begin("$ go vet ./...")
	if _, texts := shownCells(r.out.box); !strings.Contains(texts, "|v|e|t|") {
		t.Errorf("the run's head is not drawn: %.200s", texts)
	}
	if r.out.grid.Size() != r.out.box.Size() {
		t.Errorf("the Run output's grid is %v in a pane of %v", r.out.grid.Size(), r.out.box.Size())
	}
	r.out.clear()
	if n, texts := shownCells(r.out.box); n != 0 {
		t.Errorf("the cleared Run output draws %d cells: %.80s", n, texts)
	}
}

// shownCells counts the texts o draws (hidden objects are not drawn) and
// gives them between bars.
func shownCells(o fyne.CanvasObject) (n int, texts string) {
	texts = "|"
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *canvas.Text:
			n++
			texts += x.Text + "|"
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return n, texts
}

// TestNewMakesTheChangeSetsPaneWithTheOthers: a window made with change
// sets (New's first step, newWindowIn) has their pane among the panes from
// the start, so the tab bar is laid out once with every tab (adding it at
// New's fifth step laid the bar out again); the pane is last and there
// once, and the fifth step (connect) starts its watch of the store: the
// list is loaded. A second connect adds nothing.
func TestNewMakesTheChangeSetsPaneWithTheOthers(t *testing.T) {
	a := test.NewTempApp(t)
	p := newProject(t, map[string]string{"main.go": mainGo})
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := changeset.NewManager(db, p)
	w := newWindowIn(a.NewWindow(windowTitle(p)), p, m)
	t.Cleanup(func() { w.review.stop(); w.Window().Close(); w.status.stop() })
	w.installActions(Actions{})
	if w.review.view == nil {
		t.Fatal("no Change Sets pane made with the panes")
	}
	// As startChanges: the test driver runs the view's work on its own
	// goroutine until RunInline, so nothing else touches the window
	// meanwhile.
	w.review.connect(m)
	testfix.Receive(t, 30*time.Second, "the change sets list loaded once connected", w.review.view.Refreshed())
	w.review.view.RunInline()
	w.review.connect(m)
	w.win.Resize(fyne.NewSize(2400, 720)) // room for every tab in the bar
	bar := drawnTexts(w.panes.tabs)
	if n := strings.Count(bar, "|"+review.Title+"|"); n != 1 {
		t.Errorf("the tab bar shows %s: %d %s tabs, want 1", bar, n, review.Title)
	}
	last := w.panes.all[len(w.panes.all)-1]
	if len(w.panes.tabs.Items) != len(paneParts())+1 || last.paneTitle() != review.Title || w.panes.item(last) != w.review.view.Item() {
		t.Errorf("%d tabs, the last %q; want the %d panes of paneParts and then %s", len(w.panes.tabs.Items), last.paneTitle(), len(paneParts()), review.Title)
	}
}

// closeNew closes a window New made, once its reads on other goroutines
// (the configuration's, connectServices) are through: Fyne's test driver
// runs their fyne.Do inline on their goroutine, so one still running
// would measure text beside the next test (the race detector saw it on
// Fyne's shared font cache).
func closeNew(w *Window) {
	w.loading.Wait()
	w.Window().Close()
	w.main.close()
}
