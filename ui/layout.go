package ui

import (
	"fyne.io/fyne/v2"

	"trestle/app/store"
)

// layoutState captures what is restored on the next start: window size,
// split positions, open tabs and the active one. Main goroutine only.
func (w *Window) layoutState() store.ProjectState {
	size := w.win.Canvas().Size()
	st := store.ProjectState{
		Width: size.Width, Height: size.Height,
		TreeSplit: w.treeSplit.Offset, PaneSplit: w.paneSplit.Offset,
		ActiveTab: w.tabs.active(),
	}
	for _, t := range w.tabs.list() {
		st.Tabs = append(st.Tabs, t.Path)
	}
	return st
}

// restoreLayout reads the project's remembered layout and the files of its
// tabs off the main goroutine, then applies it in one main-thread update.
func (w *Window) restoreLayout(store *store.Store) {
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
	w.onMain(func() { w.applyLayout(st, files) })
}

func (w *Window) applyLayout(st store.ProjectState, files []loaded) {
	if st.Width >= 400 && st.Height >= 300 {
		w.win.Resize(fyne.NewSize(st.Width, st.Height))
	}
	if st.TreeSplit > 0.05 && st.TreeSplit < 0.95 {
		w.treeSplit.SetOffset(st.TreeSplit)
	}
	if st.PaneSplit > 0.05 && st.PaneSplit < 0.95 {
		w.paneSplit.SetOffset(st.PaneSplit)
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
func (w *Window) SaveLayout() error {
	store := w.actions.Store
	if store == nil || w.closedLayout == nil {
		return nil
	}
	st, err := store.ProjectState(w.project.Root)
	if err != nil {
		return err
	}
	policy := st.Policy
	st = *w.closedLayout
	st.Policy = policy
	if err := store.SaveProjectState(w.project.Root, st); err != nil {
		return err
	}
	// The project closed last is the one a launch without a folder opens.
	return store.TouchProject(w.project.Root)
}
