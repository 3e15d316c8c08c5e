package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/store"
	"trestle/app/watch"
)

// NewTheme is Fyne's theme with the person's theme and font size settings.
func NewTheme(s store.Settings) fyne.Theme { return newTheme(s) }

// useSettings gives the window the stored settings and this project's
// agent policy (New's second step). Main goroutine only.
func (w *Window) useSettings(s store.Settings, policy string) {
	w.settings = s
	w.policy = policy
	w.files.hideIgnored = s.HideIgnored
	w.tabs.setTabWidth(s.TabWidth)
}

// setHideIgnored hides or dims what .gitignore ignores, reading the open
// folders again off the main goroutine. Main goroutine only.
func (w *Window) setHideIgnored(hide bool) {
	if w.files.hideIgnored == hide {
		return
	}
	w.files.hideIgnored = hide
	w.loading.Go(func() {
		reads := w.files.reread([]watch.Event{{Path: watch.All, Op: watch.Changed}})
		w.onMain(func() { w.files.apply(reads) })
	})
}

// Policy is this project's agent permission policy. Main goroutine only.
func (w *Window) Policy() string { return w.policy }

// settingsForm is the Settings dialog's form: a row per settingTable
// entry, and the project's trust when it has one. Main goroutine only.
type settingsForm struct {
	rows    []*widget.FormItem
	reads   []func(*settingValues) // read each row back
	trusted *widget.Check          // the project's trust (trust.go); nil without one
}

func newSettingsForm(s store.Settings, policy string) *settingsForm {
	f := &settingsForm{}
	v := settingValues{Settings: s, Policy: policy}
	for _, row := range settingTable() {
		w, read := row.edit(v)
		f.rows = append(f.rows, &widget.FormItem{Text: row.label, Widget: w, HintText: row.hint})
		f.reads = append(f.reads, read)
	}
	return f
}

func (f *settingsForm) items() []*widget.FormItem {
	items := slices.Clone(f.rows)
	if f.trusted != nil {
		items = append(items, &widget.FormItem{Text: "Project trust", Widget: f.trusted,
			HintText: "trusted: its git settings and .trestle.json tasks and environment are used; clear to revoke"})
	}
	return items
}

// values reads the form back into settings and a policy: every field from
// its row, none left zero.
func (f *settingsForm) values() (store.Settings, string) {
	var v settingValues
	for _, read := range f.reads {
		read(&v)
	}
	return v.Settings, v.Policy
}

// showSettings opens the Settings dialog. Main goroutine only.
func (w *Window) showSettings() {
	f := newSettingsForm(w.settings, w.policy)
	tr := w.services.Trust
	if tr != nil {
		f.trusted = widget.NewCheck("Trust this project", nil)
		f.trusted.SetChecked(tr.Trusted())
	}
	items := f.items()
	if h := w.panes.agent; h != nil {
		items = append(items, h.agentsSetting())
	}
	d := dialog.NewForm("Settings", "Save", "Cancel", items, func(ok bool) {
		if ok {
			w.applySettings(f.values())
			if f.trusted != nil && f.trusted.Checked != tr.Trusted() {
				w.setTrust(f.trusted.Checked)
			}
		}
	}, w.win)
	d.Resize(fyne.NewSize(520, 0))
	w.dialogs.show(d)
}

// applySettings takes effect at once and is stored off the main goroutine.
func (w *Window) applySettings(s store.Settings, policy string) {
	if err := s.Validate(); err != nil {
		w.dialogs.showError(err)
		return
	}
	listenerChanged := s.Listener != w.settings.Listener
	w.settings, w.policy = s, policy
	if g := w.services.Gate; g != nil {
		g.SetPolicy(policy)
	}
	fyne.CurrentApp().Settings().SetTheme(newTheme(s))
	w.setHideIgnored(s.HideIgnored)
	w.tabs.setTabWidth(s.TabWidth)
	if listenerChanged {
		w.menu.applyListener()
	}
	w.menu.build(nil)
	w.saveSettings(s)
	w.savePolicy(policy)
}

func (w *Window) saveSettings(s store.Settings) {
	if st := w.actions.Store; st != nil {
		w.loading.Go(func() { w.report(st.SaveSettings(s)) })
	}
}

func (w *Window) savePolicy(policy string) {
	st := w.actions.Store
	if st == nil {
		return
	}
	root := w.project.Root
	w.loading.Go(func() {
		ps, err := st.ProjectState(root)
		if err == nil {
			ps.Policy = policy
			err = st.SaveProjectState(root, ps)
		}
		w.report(err)
	})
}

// report shows err, if any, in the status bar. Any goroutine.
func (w *Window) report(err error) {
	if err != nil {
		msg := err.Error()
		w.onMain(func() { w.status.notify(msg) })
	}
}
