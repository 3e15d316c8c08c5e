package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/store"
	"trestle/app/watch"
)

// NewTheme is Fyne's theme with the person's theme and font size settings.
func NewTheme(s store.Settings) fyne.Theme { return newTheme(s) }

// settingsUI is the window's settings part: the person's settings and
// this project's agent policy as they stand, the Settings dialog, and
// applying and storing a change. The settings are embedded, so any part
// reads one as w.settings.TabWidth; only this part changes them (and the
// Agents menu's Listen for Agents, menus.go). It reaches the window's
// files, tabs, services and store through w. Main goroutine only.
type settingsUI struct {
	w *Window
	store.Settings
	policy string // this project's agent permission policy
}

// use gives the window the stored settings and this project's agent
// policy (New's second step). Main goroutine only.
func (s *settingsUI) use(set store.Settings, policy string) {
	w := s.w
	s.Settings = set
	s.policy = policy
	w.files.hideIgnored = set.HideIgnored
	w.tabs.setTabWidth(set.TabWidth)
}

// setHideIgnored hides or dims what .gitignore ignores, reading the open
// folders again off the main goroutine. Main goroutine only.
func (s *settingsUI) setHideIgnored(hide bool) {
	w := s.w
	if w.files.hideIgnored == hide {
		return
	}
	w.files.hideIgnored = hide
	w.loading.Go(func() {
		reads := w.files.reread([]watch.Event{{Path: watch.All, Op: watch.Changed}})
		w.onMain(func() { w.files.apply(reads) })
	})
}

// settingsForm is the Settings dialog's form: a row per settingTable
// entry, and the project's trust when it has one. Main goroutine only.
type settingsForm struct {
	rows    []*widget.FormItem
	reads   []func(*settingValues) // read each row back
	trusted *escCheck              // the project's trust (trust.go); nil without one
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

// show opens the Settings dialog. Main goroutine only.
func (s *settingsUI) show() {
	w := s.w
	f := newSettingsForm(s.Settings, s.policy)
	tr := w.services.Trust
	if tr != nil {
		f.trusted = newEscCheck("Trust this project", nil)
		f.trusted.SetChecked(tr.Trusted())
	}
	items := f.items()
	if h := w.panes.agent; h != nil {
		items = append(items, h.agentsSetting())
	}
	// The rows scroll: they need some 740 px, more than a 700 px window has.
	form := widget.NewForm(items...)
	d := dialog.NewCustomConfirm("Settings", "Save", "Cancel", container.NewVScroll(form), func(ok bool) {
		if ok {
			s.apply(f.values())
			if f.trusted != nil && f.trusted.Checked != tr.Trusted() {
				w.trust.set(f.trusted.Checked)
			}
		}
	}, w.win)
	d.Resize(settingsSize(form.MinSize(), w.win.Canvas().Size()))
	w.dialogs.show(d)
}

// settingsSize is the Settings dialog's size for rows of size rows in a
// window of size win: all the rows when the window has room, else as
// high as the window allows, the rows scrolling.
func settingsSize(rows, win fyne.Size) fyne.Size {
	const chrome = 140 // the title, Save and Cancel, the dialog's padding
	h := rows.Height + chrome
	if room := win.Height - 4*theme.Padding(); h > room {
		h = room
	}
	return fyne.NewSize(max(rows.Width+theme.ScrollBarSize()+theme.Padding(), 560), h) // the bar covers none of a hint
}

// apply makes set and policy the settings, taking effect at once, and
// stores them off the main goroutine. Main goroutine only.
func (s *settingsUI) apply(set store.Settings, policy string) {
	w := s.w
	if err := set.Validate(); err != nil {
		w.dialogs.showError(err)
		return
	}
	listenerChanged := set.Listener != s.Listener
	s.Settings, s.policy = set, policy
	if g := w.services.Gate; g != nil {
		g.SetPolicy(policy)
	}
	fyne.CurrentApp().Settings().SetTheme(newTheme(set))
	s.setHideIgnored(set.HideIgnored)
	w.tabs.setTabWidth(set.TabWidth)
	if listenerChanged {
		w.menu.applyListener()
	}
	w.menu.build(nil)
	s.save()
	s.savePolicy(policy)
}

// save stores the settings as they stand, off the main goroutine. Main
// goroutine only.
func (s *settingsUI) save() {
	w := s.w
	if st := w.actions.Store; st != nil {
		set := s.Settings
		w.loading.Go(func() { w.status.report(st.SaveSettings(set)) })
	}
}

// savePolicy stores policy as this project's, off the main goroutine.
// Main goroutine only.
func (s *settingsUI) savePolicy(policy string) {
	w := s.w
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
		w.status.report(err)
	})
}
