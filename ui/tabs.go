package ui

import (
	"path"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app"
)

// fileTab is one open tab.
type fileTab struct {
	path string
	text string    // the file's text; "" for a notice
	view *fileView // nil for a notice
	item *container.TabItem
}

// tabArea is the right-hand side of the window: the open files in
// DocTabs, or a hint when there are none. Used on the main goroutine only.
type tabArea struct {
	docs     *container.DocTabs
	hint     fyne.CanvasObject
	content  *fyne.Container
	byItem   map[*container.TabItem]*fileTab
	onChange func() // after the active tab changed or a tab closed
}

func newTabArea() *tabArea {
	a := &tabArea{byItem: map[*container.TabItem]*fileTab{}, onChange: func() {}}
	a.docs = container.NewDocTabs()
	a.docs.OnClosed = a.closed
	a.docs.OnSelected = func(*container.TabItem) { a.onChange() }
	a.hint = container.NewCenter(widget.NewLabel("Open a file from the tree"))
	a.content = container.NewStack(a.hint, a.docs)
	a.update()
	return a
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

// active returns the path of the selected tab, or "".
func (a *tabArea) active() string {
	if t := a.byItem[a.docs.Selected()]; t != nil {
		return t.path
	}
	return ""
}

// focus selects the tab of rel and reports whether there is one.
func (a *tabArea) focus(rel string) bool {
	t := a.find(rel)
	if t != nil {
		a.docs.Select(t.item)
	}
	return t != nil
}

// show opens f in a new tab, or focuses its tab when it has one (keeping
// the text already there), and marks line when line > 0.
func (a *tabArea) show(f loaded, line int) {
	t := a.find(f.path)
	if t == nil {
		t = a.add(f)
	}
	a.docs.Select(t.item)
	if line > 0 && t.view != nil {
		t.view.showLine(line)
	}
}

func (a *tabArea) add(f loaded) *fileTab {
	t := &fileTab{path: f.path, text: f.text}
	var content fyne.CanvasObject
	if f.notice != "" {
		content = container.NewCenter(widget.NewLabel(f.notice))
	} else {
		t.view = newFileView(f.src)
		content = t.view
	}
	t.item = container.NewTabItem(a.title(f.path), content)
	a.byItem[t.item] = t
	a.docs.Append(t.item)
	a.update()
	return t
}

// title is the base name of rel, or all of rel when another tab has the
// same base name.
func (a *tabArea) title(rel string) string {
	for _, t := range a.byItem {
		if path.Base(t.path) == path.Base(rel) {
			return rel
		}
	}
	return path.Base(rel)
}

func (a *tabArea) closed(item *container.TabItem) {
	delete(a.byItem, item)
	a.update()
	a.onChange()
}

func (a *tabArea) update() {
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
	text string
	open bool
}

// buffer returns the text of rel's tab, if it has one with text.
func (a *tabArea) buffer(rel string) buffer {
	if t := a.find(rel); t != nil && t.view != nil {
		return buffer{text: t.text, open: true}
	}
	return buffer{}
}

// list returns the open tabs in tab order, the selected one active.
func (a *tabArea) list() []app.Tab {
	paths := make([]string, len(a.docs.Items))
	for i, item := range a.docs.Items {
		paths[i] = a.byItem[item].path
	}
	return tabList(paths, a.docs.SelectedIndex())
}

// tabList describes open tabs for the tools: paths in tab order, the one at
// index active flagged. Nothing is dirty while tabs are read-only.
func tabList(paths []string, active int) []app.Tab {
	tabs := make([]app.Tab, len(paths))
	for i, p := range paths {
		tabs[i] = app.Tab{Path: p, Active: i == active}
	}
	return tabs
}
