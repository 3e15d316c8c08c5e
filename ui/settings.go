package ui

import (
	"slices"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/eval"
	"trestle/app/permission"
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
		fyne.Do(func() { w.files.apply(reads) })
	})
}

// Policy is this project's agent permission policy. Main goroutine only.
func (w *Window) Policy() string { return w.policy }

// settingsForm holds the widgets of the Settings dialog.
type settingsForm struct {
	listener, hideIgnored, format *widget.Check
	policy, tabWidth, theme, font *widget.Select
	evalDeadline                  *widget.Select
	evalMemory                    *widget.Select // MiB, or evalMemoryDefault
	retention                     *widget.Select // days decided change sets are kept
	unsaved                       *widget.Select // unsavedChoices: what a run does about unsaved editors
	trusted                       *widget.Check  // the project's trust (trust.go); nil without one
}

// unsavedChoices are the Settings dialog's words for
// store.Settings.UnsavedBeforeRun, in its order.
var unsavedChoices = []string{"Save all first", "Ask"}

func newSettingsForm(s store.Settings, policy string) *settingsForm {
	f := &settingsForm{
		listener:     widget.NewCheck("Listen for agents on loopback", nil),
		hideIgnored:  widget.NewCheck("Hide files .gitignore ignores (else dimmed)", nil),
		format:       widget.NewCheck("Format Go files with gopls on save (gofmt, imports)", nil),
		policy:       widget.NewSelect([]string{permission.PolicyAsk, permission.PolicyAllow, permission.PolicyDeny}, nil),
		tabWidth:     widget.NewSelect([]string{"2", "4", "8"}, nil),
		theme:        widget.NewSelect([]string{store.ThemeSystem, store.ThemeLight, store.ThemeDark}, nil),
		font:         widget.NewSelect([]string{"default", "12", "14", "16", "18", "20"}, nil),
		evalDeadline: widget.NewSelect([]string{"5", "10", "20", "30", "60"}, nil),
		evalMemory:   widget.NewSelect([]string{evalMemoryDefault, "512", "1024", "2048", "4096", "8192", "16384"}, nil),
		retention:    widget.NewSelect([]string{"7", "30", "90", "365"}, nil),
		unsaved:      widget.NewSelect(unsavedChoices, nil),
	}
	f.unsaved.SetSelected(unsavedChoices[0])
	if !s.SaveBeforeRun() {
		f.unsaved.SetSelected(unsavedChoices[1])
	}
	f.evalDeadline.SetSelected(strconv.Itoa(evalDeadlineSeconds(s)))
	mem := evalMemoryDefault
	if s.EvalMemoryMiB > 0 {
		mem = strconv.Itoa(s.EvalMemoryMiB)
		if !slices.Contains(f.evalMemory.Options, mem) {
			f.evalMemory.Options = append(f.evalMemory.Options, mem) // set elsewhere: kept as it is
		}
	}
	f.evalMemory.SetSelected(mem)
	days := s.ChangeSetRetentionDays
	if days <= 0 {
		days = store.DefaultChangeSetRetentionDays
	}
	if !slices.Contains(f.retention.Options, strconv.Itoa(days)) {
		f.retention.Options = append(f.retention.Options, strconv.Itoa(days)) // set elsewhere: kept as it is
	}
	f.retention.SetSelected(strconv.Itoa(days))
	f.listener.SetChecked(s.Listener)
	f.hideIgnored.SetChecked(s.HideIgnored)
	f.format.SetChecked(s.FormatOnSave)
	f.policy.SetSelected(policyOrAsk(policy))
	f.tabWidth.SetSelected(strconv.Itoa(s.TabWidth))
	f.theme.SetSelected(s.Theme)
	f.font.SetSelected("default")
	if s.FontSize > 0 {
		f.font.SetSelected(strconv.Itoa(int(s.FontSize)))
	}
	return f
}

func policyOrAsk(p string) string {
	if p == "" {
		return permission.PolicyAsk
	}
	return p
}

func (f *settingsForm) items() []*widget.FormItem {
	items := []*widget.FormItem{
		widget.NewFormItem("Agents", f.listener),
		{Text: "Agent runs and evaluations", Widget: f.policy, HintText: "for this project: ask each time, allow, or deny"},
		widget.NewFormItem("Tab width", f.tabWidth),
		widget.NewFormItem("Theme", f.theme),
		widget.NewFormItem("Font size", f.font),
		widget.NewFormItem("File tree", f.hideIgnored),
		widget.NewFormItem("Go", f.format),
		{Text: "Unsaved files at Build, Test, Vet", Widget: f.unsaved, HintText: "tasks read the disk: save every editor first, or ask (agents' runs too)"},
		{Text: "Evaluation deadline", Widget: f.evalDeadline, HintText: "seconds an evaluation you start may run; past it the evaluator is killed"},
		{Text: "Evaluator memory (MiB)", Widget: f.evalMemory, HintText: "each evaluator's limit; past it the result says out of memory (from the next start)"},
		{Text: "Keep decided change sets (days)", Widget: f.retention, HintText: "applied, rejected and withdrawn ones are removed after this"},
	}
	if f.trusted != nil {
		items = append(items, &widget.FormItem{Text: "Project trust", Widget: f.trusted,
			HintText: "trusted: its git settings and .trestle.json tasks and environment are used; clear to revoke"})
	}
	return items
}

// values reads the form back into settings and a policy.
func (f *settingsForm) values() (store.Settings, string) {
	tab, _ := strconv.Atoi(f.tabWidth.Selected)
	size, _ := strconv.Atoi(f.font.Selected) // "default" reads as 0
	deadline, _ := strconv.Atoi(f.evalDeadline.Selected)
	memory, _ := strconv.Atoi(f.evalMemory.Selected) // the default reads as 0
	days, _ := strconv.Atoi(f.retention.Selected)
	unsaved := store.UnsavedSave
	if f.unsaved.Selected == unsavedChoices[1] {
		unsaved = store.UnsavedAsk
	}
	return store.Settings{
		Listener: f.listener.Checked, HideIgnored: f.hideIgnored.Checked,
		TabWidth: tab, Theme: f.theme.Selected, FontSize: float32(size), FormatOnSave: f.format.Checked,
		EvalDeadline: deadline, EvalMemoryMiB: memory, ChangeSetRetentionDays: days, UnsavedBeforeRun: unsaved,
	}, f.policy.Selected
}

// evalMemoryDefault is the evaluator memory choice that sets no number.
const evalMemoryDefault = "a quarter of RAM"

// evalDeadlineSeconds is the setting, its default (10 s) when unset.
func evalDeadlineSeconds(s store.Settings) int {
	if s.EvalDeadline > 0 {
		return s.EvalDeadline
	}
	return int(eval.DefaultTimeout / time.Second)
}

// showSettings opens the Settings dialog. Main goroutine only.
func (w *Window) showSettings() {
	f := newSettingsForm(w.settings, w.policy)
	tr := w.services.Trust
	if tr != nil {
		f.trusted = widget.NewCheck("Trust this project", nil)
		f.trusted.SetChecked(tr.Trusted())
	}
	d := dialog.NewForm("Settings", "Save", "Cancel", f.items(), func(ok bool) {
		if ok {
			w.applySettings(f.values())
			if f.trusted != nil && f.trusted.Checked != tr.Trusted() {
				w.setTrust(f.trusted.Checked)
			}
		}
	}, w.win)
	d.Resize(fyne.NewSize(520, 0))
	showDialog(w.win.Canvas(), d)
}

// applySettings takes effect at once and is stored off the main goroutine.
func (w *Window) applySettings(s store.Settings, policy string) {
	if err := s.Validate(); err != nil {
		showError(err, w.win)
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
		w.applyListener()
	}
	w.buildMenu(nil)
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
		fyne.Do(func() { w.status.notify(msg) })
	}
}
