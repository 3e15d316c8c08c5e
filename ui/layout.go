package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"trestle/app/store"
)

// layoutUI is the window's layout part: the splits between the tree, the
// editors and the panes, and the layout remembered per project (window
// size, split positions, open tabs), restored at start and saved after the
// window closed. newWindow makes the splits. It reaches the window's
// tabs and store through w. Main goroutine only, but for what says
// otherwise.
type layoutUI struct {
	w *Window
	// treeSplit holds the tree and the rest; paneSplit the editors and the panes.
	treeSplit, paneSplit *container.Split
	// closed is the layout captured as the window closed (menus.go's
	// OnClosed); nil until then.
	closed *store.ProjectState
}

// state captures what is restored on the next start: window size, split
// positions, open tabs and the active one. Main goroutine only.
func (l *layoutUI) state() store.ProjectState {
	w := l.w
	size := w.win.Canvas().Size()
	st := store.ProjectState{
		Width: size.Width, Height: size.Height,
		TreeSplit: l.treeSplit.Offset, PaneSplit: l.paneSplit.Offset,
		ActiveTab: w.tabs.active(),
	}
	for _, t := range w.tabs.list() {
		st.Tabs = append(st.Tabs, t.Path)
	}
	return st
}

// restore reads the project's remembered layout and the files of its
// tabs, then applies it in one main-thread update. It does file I/O: call
// it off the main goroutine.
func (l *layoutUI) restore(store *store.Store) {
	w := l.w
	st, err := store.ProjectState(w.project.Root)
	if err != nil {
		w.status.report(err)
		return
	}
	var files []loaded
	for _, rel := range st.Tabs {
		if f, err := loadFile(w.project, rel); err == nil { // a file gone since is skipped
			files = append(files, f)
		}
	}
	w.onMain(func() { l.apply(st, files) })
}

// apply shows st: its size and splits when they are sensible, and files
// (st's tabs, already read) in tabs. Main goroutine only.
func (l *layoutUI) apply(st store.ProjectState, files []loaded) {
	w := l.w
	if st.Width >= 400 && st.Height >= 300 {
		w.win.Resize(fyne.NewSize(st.Width, st.Height))
	}
	if st.TreeSplit > 0.05 && st.TreeSplit < 0.95 {
		l.treeSplit.SetOffset(st.TreeSplit)
	}
	if st.PaneSplit > 0.05 && st.PaneSplit < 0.95 {
		l.paneSplit.SetOffset(st.PaneSplit)
	}
	for _, f := range files {
		if !w.tabs.focus(f.path) {
			w.tabs.show(f, 0)
		}
	}
	if st.ActiveTab != "" {
		w.tabs.focus(st.ActiveTab)
	}
}

// SaveLayout stores the layout the window had when it closed, keeping the
// rest of the project's state. Call it after the window has closed (when
// ShowAndRun returns); it does nothing when there is no store or the
// window never closed.
func (w *Window) SaveLayout() error { return w.layout.save() }

// save is SaveLayout. Any goroutine, after the window closed.
func (l *layoutUI) save() error {
	w := l.w
	store := w.actions.Store
	if store == nil || l.closed == nil {
		return nil
	}
	st, err := store.ProjectState(w.project.Root)
	if err != nil {
		return err
	}
	policy := st.Policy
	st = *l.closed
	st.Policy = policy
	if err := store.SaveProjectState(w.project.Root, st); err != nil {
		return err
	}
	// The project closed last is the one a launch without a folder opens.
	return store.TouchProject(w.project.Root)
}
