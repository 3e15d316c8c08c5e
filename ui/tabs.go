package ui

import (
	"fmt"
	"path"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/project"
	"trestle/app/textbuf"
	"trestle/app/workbench"
	"trestle/ui/editor"
)

// dirtyMark starts the title of a tab whose text has unsaved changes.
const dirtyMark = "● "

// fileTab is one open tab.
type fileTab struct {
	path string
	view *editor.Editor // nil for a notice
	item *container.TabItem
	// head is the file's text at git's HEAD, when headKnown (gitgutter.go).
	head      string
	headKnown bool
	gitTimer  *time.Timer // the debounced gutter update after an edit
}

// dirty reports whether the tab's text has unsaved changes.
// A nil t (a tab that holds no file, such as a change-set review) has none.
func (t *fileTab) dirty() bool { return t != nil && t.view != nil && t.view.Buffer().Modified() }

// tabArea is the right-hand side of the window: the open files in
// DocTabs, or a hint when there are none. Used on the main goroutine only.
type tabArea struct {
	main     *mainThread  // the window's way onto the main goroutine (a save's answer)
	dialogs  *dialogStack // the window's (escape.go); nil outside a window
	docs     *container.DocTabs
	hint     fyne.CanvasObject
	hintBox  *fyne.Container // holds hint
	content  *fyne.Container
	byItem   map[*container.TabItem]*fileTab
	tabWidth int

	// win, project and notify are set by attach.
	win     fyne.Window
	project *project.Project
	notify  func(string)
	saving  sync.WaitGroup // writes started by save
	// async runs a read off the main goroutine, in the window's loading
	// group (reload.go, replace.go).
	async func(fn func())
	// agentShowing is set while showForAgent selects a tab.
	agentShowing bool
	// format, when set, formats t's text before it is written (format on
	// save, lsp.go) and then calls write: every save goes through save.
	format func(t *fileTab, write func())

	onChange func()              // after the active tab changed or a tab closed
	onCaret  func(line, col int) // after the active editor's caret moved; 1-based, 0, 0 for no editor
	onEval   func(code string)   // Ctrl+Enter in an editor
	// added, typed and saved are the hooks registered with onAdded,
	// onTyped and onSaved, run in the order they were registered.
	added, typed, saved []func(t *fileTab)
	// onOpened hears of each new editor of t (before it becomes t.view),
	// onClosed of each closed tab (lsp.go).
	onOpened func(t *fileTab, e *editor.Editor)
	onClosed func(t *fileTab)
}

func newTabArea() *tabArea {
	a := &tabArea{byItem: map[*container.TabItem]*fileTab{}, onChange: func() {}, notify: func(string) {}}
	a.docs = container.NewDocTabs()
	a.docs.OnClosed = a.closed
	a.docs.CloseIntercept = a.askClose
	a.docs.OnSelected = a.selected
	a.hint = container.NewCenter(widget.NewLabel("Open a file from the tree"))
	a.hintBox = container.NewStack(a.hint)
	a.content = container.NewStack(a.hintBox, a.docs)
	a.update()
	return a
}

// attach gives the tabs the window they show dialogs over, the project
// they save into and where to show messages.
func (a *tabArea) attach(win fyne.Window, p *project.Project, notify func(string)) {
	a.win, a.project, a.notify = win, p, notify
}

// find returns the tab of rel, or nil.
func (a *tabArea) find(rel string) *fileTab {
	for _, t := range a.byItem {
		if t.path == rel {
			return t
		}
	}
	return nil
}

// current returns the selected tab, or nil.
func (a *tabArea) current() *fileTab { return a.byItem[a.docs.Selected()] }

// active returns the path of the selected tab, or "".
func (a *tabArea) active() string {
	if t := a.current(); t != nil {
		return t.path
	}
	return ""
}

// activeEditor returns the selected tab's editor, or nil.
func (a *tabArea) activeEditor() *editor.Editor {
	if t := a.current(); t != nil {
		return t.view
	}
	return nil
}

// shownEditor returns the selected tab's editor when the person sees it.
// When the tab shows something in its place (an agent's proposal inline)
// it returns nil and why, for the status bar: an action bound to a key
// (Go to Line, F2, F12, Paste) must not act on a text the person cannot see.
func (a *tabArea) shownEditor() (*editor.Editor, string) {
	t := a.current()
	switch {
	case t == nil || t.view == nil:
		return nil, ""
	case !holds(t.item.Content, t.view):
		return nil, t.path + " shows the agent's proposal in place of its editor: click Back to Editor above the proposal to use the editor's keys"
	}
	return t.view, ""
}

// focus selects the tab of rel and reports whether there is one.
func (a *tabArea) focus(rel string) bool {
	t := a.find(rel)
	if t != nil {
		a.docs.Select(t.item)
	}
	return t != nil
}

// selected focuses the text of the newly selected tab (unless an agent's
// open selected it: showForAgent decides then) and tells onChange.
func (a *tabArea) selected(item *container.TabItem) {
	if t := a.byItem[item]; t != nil && t.view != nil && !a.agentShowing {
		a.focusText(t)
	} else if a.win != nil && !a.agentShowing {
		a.dropHiddenKeys() // a tab without an editor: the one that had the keys is hidden now
	}
	a.caretChanged()
	a.onChange()
}

// caretChanged tells onCaret where the active editor's caret is, or 0, 0
// when no editor is active.
func (a *tabArea) caretChanged() {
	if a.onCaret == nil {
		return
	}
	if e := a.activeEditor(); e != nil {
		a.onCaret(e.Caret().Line+1, e.Caret().Col+1)
		return
	}
	a.onCaret(0, 0)
}

// show opens f in a new tab, or focuses its tab when it has one (keeping
// the text already there), puts the caret on line when line > 0, and
// gives its editor the keyboard: a person opened it.
func (a *tabArea) show(f loaded, line int) {
	t := a.reveal(f, line)
	a.focusText(t)
}

// showForAgent is show for an agent's open (trestle_open): the keyboard
// moves to the shown editor only when it was in an editor or find bar
// that the switch hid (keys must never go to a hidden widget) or nowhere;
// a person typing in the Eval line, the search field or a dialog keeps it.
func (a *tabArea) showForAgent(f loaded, line int) {
	hadKeys := a.win == nil || a.keysHere()
	a.agentShowing = true
	t := a.reveal(f, line)
	a.agentShowing = false
	if hadKeys {
		a.focusText(t)
	}
}

// reveal opens f in a new tab, or selects its tab, and puts the caret on
// line when line > 0.
func (a *tabArea) reveal(f loaded, line int) *fileTab {
	t := a.find(f.path)
	if t == nil {
		t = a.add(f)
	}
	a.docs.Select(t.item)
	if line > 0 && t.view != nil {
		t.view.ShowLine(line)
		t.view.CentreCaret()
	}
	a.caretChanged() // Select is silent for the only tab
	return t
}

// keysHere reports whether the keyboard is in an editor or an editor's
// find bar, or nowhere at all. Main goroutine only.
func (a *tabArea) keysHere() bool {
	f := a.win.Canvas().Focused()
	if f == nil {
		return a.win.Canvas().Overlays().Top() == nil
	}
	if _, ok := f.(*editor.BarEntry); ok {
		return true
	}
	for _, t := range a.byItem {
		if t.view != nil && f == fyne.Focusable(t.view.Page()) {
			return true
		}
	}
	return false
}

// setHint replaces what shows when no tab is open.
func (a *tabArea) setHint(o fyne.CanvasObject) {
	if !a.hint.Visible() {
		o.Hide()
	}
	a.hint = o
	a.hintBox.Objects = []fyne.CanvasObject{o}
	a.hintBox.Refresh()
}

// focusText gives t's editor the keyboard: what a person opens takes it
// (keys.go). Under a dialog the desktop driver focuses it in the window's
// content, for when the dialog closes; the dialog keeps the keyboard.
// When t shows something else in place of its editor (an agent's proposal
// inline), Fyne cannot focus the editor and would leave the keys where
// they were, in an editor now hidden: no editor gets them then.
func (a *tabArea) focusText(t *fileTab) {
	if t.view == nil || a.win == nil {
		return
	}
	if !holds(t.item.Content, t.view) {
		a.dropHiddenKeys()
		return
	}
	a.win.Canvas().Focus(t.view.Page())
}

// dropHiddenKeys takes the keyboard from the editor or find bar that has
// it, for when the selected tab shows no editor: that one is hidden, and
// what the person types would change a file they cannot see. A dialog's
// keyboard is left alone. Main goroutine only.
func (a *tabArea) dropHiddenKeys() {
	c := a.win.Canvas()
	if c.Overlays().Top() == nil && c.Focused() != nil && a.keysHere() {
		c.Unfocus()
	}
}

// holds reports whether target is o or inside o's containers.
func holds(o, target fyne.CanvasObject) bool {
	if o == target {
		return true
	}
	if c, ok := o.(*fyne.Container); ok {
		for _, x := range c.Objects {
			if holds(x, target) {
				return true
			}
		}
	}
	return false
}

func (a *tabArea) add(f loaded) *fileTab {
	t := &fileTab{path: f.path}
	var content fyne.CanvasObject
	if f.notice != "" {
		content = container.NewCenter(widget.NewLabel(f.notice))
	} else {
		t.view = a.newEditor(t, f)
		content = t.view
	}
	t.item = container.NewTabItem(a.title(t), content)
	a.byItem[t.item] = t
	a.docs.Append(t.item)
	a.update()
	if t.view != nil {
		runHooks(a.added, t)
	}
	return t
}

// onAdded registers fn to hear of each tab opened with an editor (the git
// gutter reads HEAD, the change sets show their strip). Main goroutine
// only, as the window is built.
func (a *tabArea) onAdded(fn func(t *fileTab)) { a.added = append(a.added, fn) }

// onTyped registers fn to hear of each change of an editor's text (the
// git gutter's marks, the change sets' stale check). Main goroutine only,
// as the window is built.
func (a *tabArea) onTyped(fn func(t *fileTab)) { a.typed = append(a.typed, fn) }

// onSaved registers fn to hear of each tab whose text was written. Main
// goroutine only, as the window is built.
func (a *tabArea) onSaved(fn func(t *fileTab)) { a.saved = append(a.saved, fn) }

// runHooks calls each of hooks with t, in order.
func runHooks(hooks []func(t *fileTab), t *fileTab) {
	for _, fn := range hooks {
		fn(t)
	}
}

func (a *tabArea) newEditor(t *fileTab, f loaded) *editor.Editor {
	e := editor.New(f.buf, f.hl)
	e.SetTabWidth(a.tabWidth)
	e.OnModified = func() { a.retitle(t) }
	e.OnCaret = func(line, col int) {
		if a.onCaret != nil && a.current() == t {
			a.onCaret(line, col)
		}
	}
	e.OnSave = func() { a.save(t, nil) }
	e.OnEdit = func() { runHooks(a.typed, t) }
	e.OnEval = func(code string) {
		if a.onEval != nil {
			a.onEval(code)
		}
	}
	e.SetDiskHash(f.hash)
	if a.onOpened != nil {
		a.onOpened(t, e)
	}
	return e
}

// title is the tab's base name, followed by its folder when another tab
// has the same base name ("calc.go — internal/calc"; a file at the root
// keeps its bare name), after dirtyMark when it has unsaved changes.
func (a *tabArea) title(t *fileTab) string {
	name := path.Base(t.path)
	for _, other := range a.byItem {
		if other != t && path.Base(other.path) == name {
			if dir := path.Dir(t.path); dir != "." {
				name += " — " + dir
			}
			break
		}
	}
	if t.dirty() {
		return dirtyMark + name
	}
	return name
}

// retitle shows whether t has unsaved changes in its title.
func (a *tabArea) retitle(t *fileTab) {
	if title := a.title(t); title != t.item.Text {
		t.item.Text = title
		a.docs.Refresh()
	}
}

// setTabWidth shows tabs at n cells in every editor, now and later.
func (a *tabArea) setTabWidth(n int) {
	a.tabWidth = n
	for _, t := range a.byItem {
		if t.view != nil {
			t.view.SetTabWidth(n)
		}
	}
}

// askClose closes a tab, asking first whether to save unsaved changes.
func (a *tabArea) askClose(item *container.TabItem) {
	t := a.byItem[item]
	if t == nil || !t.dirty() {
		a.remove(item)
		return
	}
	msg := fmt.Sprintf("%s has unsaved changes.", t.path)
	askSave(a.dialogs, "Close "+path.Base(t.path), msg, func() {
		a.save(t, func(ok bool) {
			if ok {
				a.remove(item)
			}
		})
	}, func() { a.remove(item) })
}

// remove closes the tab of item without asking.
func (a *tabArea) remove(item *container.TabItem) {
	a.docs.Remove(item)
	a.closed(item)
}

func (a *tabArea) closed(item *container.TabItem) {
	if t := a.byItem[item]; t != nil && a.onClosed != nil {
		a.onClosed(t)
	}
	delete(a.byItem, item)
	a.update()
	a.caretChanged()
	a.onChange()
}

func (a *tabArea) update() {
	for _, t := range a.byItem {
		a.retitle(t) // a tab that came or went may make a name collide, or no longer
	}
	if len(a.docs.Items) == 0 {
		a.docs.Hide()
		a.hint.Show()
		return
	}
	a.hint.Hide()
	a.docs.Show()
}

// buffer is the text of an open tab, copied out for another goroutine.
type buffer struct {
	snap        textbuf.Snapshot // joined by whoever needs the text, off the main goroutine
	open, dirty bool
}

// buffer returns the text of rel's tab as it would be saved, if it has
// one with text.
func (a *tabArea) buffer(rel string) buffer {
	if t := a.find(rel); t != nil && t.view != nil {
		return buffer{snap: t.view.Buffer().Snapshot(), open: true, dirty: t.dirty()}
	}
	return buffer{}
}

// list returns the open tabs in tab order, the selected one active.
func (a *tabArea) list() []workbench.Tab {
	tabs := make([]workbench.Tab, 0, len(a.docs.Items))
	active := a.docs.SelectedIndex()
	for i, item := range a.docs.Items {
		if t := a.byItem[item]; t != nil { // a review tab holds no file
			tab := workbench.Tab{Path: t.path, Active: i == active, Dirty: t.dirty()}
			if t.view != nil {
				tab.Version = t.view.Buffer().Version()
			}
			tabs = append(tabs, tab)
		}
	}
	return tabs
}

// fileNames lists the paths of tabs for a message.
func fileNames(tabs []*fileTab) string { return strings.Join(tabPaths(tabs), ", ") }
