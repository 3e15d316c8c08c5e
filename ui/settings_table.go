package ui

import (
	"slices"
	"strconv"
	"time"

	"fyne.io/fyne/v2"

	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/store"
)

// settingValues are what the Settings dialog edits: the person's stored
// settings and this project's agent policy.
type settingValues struct {
	store.Settings
	Policy string
}

// setting is one row of the Settings dialog, declared once in
// settingTable: its label and hint, the store.Settings field it edits
// (TestSettingsTableCoversEveryField checks every field has one row), and
// edit, which makes the row's widget showing v and returns what reads the
// widget back into a settingValues. Defaults are store.DefaultSettings and
// validation store.Settings.Validate, applied as the dialog saves.
type setting struct {
	label, hint string
	field       string
	edit        func(v settingValues) (fyne.CanvasObject, func(*settingValues))
}

// settingTable is every row of the Settings dialog, in its order. A new
// setting is one row here (after its field, default and range in
// app/store's Settings, DefaultSettings and Validate).
func settingTable() []setting {
	return []setting{
		{label: "Agents", field: "Listener",
			edit: check("Listen for agents on loopback", func(v *settingValues) *bool { return &v.Listener })},
		{label: "Agent runs and evaluations", hint: "for this project: ask each time, allow, or deny", field: "Policy",
			edit: choice([]string{permission.PolicyAsk, permission.PolicyAllow, permission.PolicyDeny},
				func(v settingValues) string { return policyOrAsk(v.Policy) }, func(v *settingValues, p string) { v.Policy = p })},
		{label: "Tab width", field: "TabWidth",
			edit: number([]string{"2", "4", "8"}, "", func(v *settingValues) *int { return &v.TabWidth })},
		{label: "Theme", field: "Theme",
			edit: choice([]string{store.ThemeSystem, store.ThemeLight, store.ThemeDark},
				func(v settingValues) string { return v.Theme }, func(v *settingValues, t string) { v.Theme = t })},
		{label: "Font size", field: "FontSize",
			edit: choice([]string{"default", "12", "14", "16", "18", "20"}, fontSizeText,
				func(v *settingValues, s string) { n, _ := strconv.Atoi(s); v.FontSize = float32(n) })}, // "default" reads as 0
		{label: "File tree", field: "HideIgnored",
			edit: check("Hide files .gitignore ignores (else dimmed)", func(v *settingValues) *bool { return &v.HideIgnored })},
		{label: "Go", field: "FormatOnSave",
			edit: check("Format Go files with gopls on save (gofmt, imports)", func(v *settingValues) *bool { return &v.FormatOnSave })},
		{label: "Unsaved files at Build, Test, Vet", field: "UnsavedBeforeRun",
			hint: "tasks read the disk: save every editor first, or ask (agents' runs too)",
			edit: choice(unsavedChoices, unsavedText, func(v *settingValues, s string) {
				v.UnsavedBeforeRun = store.UnsavedSave
				if s == unsavedChoices[1] {
					v.UnsavedBeforeRun = store.UnsavedAsk
				}
			})},
		{label: "Evaluation deadline", field: "EvalDeadline",
			hint: "seconds an evaluation you start may run; past it the evaluator is killed",
			edit: number([]string{"5", "10", "20", "30", "60"}, strconv.Itoa(int(eval.DefaultTimeout/time.Second)),
				func(v *settingValues) *int { return &v.EvalDeadline })},
		{label: "Evaluator memory (MiB)", field: "EvalMemoryMiB",
			hint: "each evaluator's limit; past it the result says out of memory (from the next start)",
			edit: number([]string{evalMemoryDefault, "512", "1024", "2048", "4096", "8192", "16384"}, evalMemoryDefault,
				func(v *settingValues) *int { return &v.EvalMemoryMiB })}, // the default reads as 0
		{label: "Keep decided change sets (days)", field: "ChangeSetRetentionDays",
			hint: "applied, rejected and withdrawn ones are removed after this",
			edit: number([]string{"7", "30", "90", "365"}, strconv.Itoa(store.DefaultChangeSetRetentionDays),
				func(v *settingValues) *int { return &v.ChangeSetRetentionDays })},
	}
}

// unsavedChoices are the Settings dialog's words for
// store.Settings.UnsavedBeforeRun, in its order.
var unsavedChoices = []string{"Save all first", "Ask"}

// evalMemoryDefault is the evaluator memory choice that sets no number.
const evalMemoryDefault = "a quarter of RAM"

func unsavedText(v settingValues) string {
	if !v.SaveBeforeRun() {
		return unsavedChoices[1]
	}
	return unsavedChoices[0]
}

func fontSizeText(v settingValues) string {
	if v.FontSize > 0 {
		return strconv.Itoa(int(v.FontSize))
	}
	return "default"
}

func policyOrAsk(p string) string {
	if p == "" {
		return permission.PolicyAsk
	}
	return p
}

// check is a setting edited by a check box labelled text.
func check(text string, field func(*settingValues) *bool) func(settingValues) (fyne.CanvasObject, func(*settingValues)) {
	return func(v settingValues) (fyne.CanvasObject, func(*settingValues)) {
		c := newEscCheck(text, nil)
		c.SetChecked(*field(&v))
		return c, func(v *settingValues) { *field(v) = c.Checked }
	}
}

// choice is a setting edited by a select of options; a value set
// elsewhere, not among them, is added and kept as it is.
func choice(options []string, get func(settingValues) string, set func(*settingValues, string)) func(settingValues) (fyne.CanvasObject, func(*settingValues)) {
	return func(v settingValues) (fyne.CanvasObject, func(*settingValues)) {
		s := newEscSelect(slices.Clone(options), nil)
		cur := get(v)
		if !slices.Contains(s.Options, cur) {
			s.Options = append(s.Options, cur) // set elsewhere: kept as it is
		}
		s.SetSelected(cur)
		return s, func(v *settingValues) { set(v, s.Selected) }
	}
}

// number is a choice of whole numbers; unset is what shows for 0 or less
// (the default's number, or words that read back as 0).
func number(options []string, unset string, field func(*settingValues) *int) func(settingValues) (fyne.CanvasObject, func(*settingValues)) {
	get := func(v settingValues) string {
		if n := *field(&v); n > 0 || unset == "" {
			return strconv.Itoa(n)
		}
		return unset
	}
	set := func(v *settingValues, s string) { *field(v), _ = strconv.Atoi(s) }
	return choice(options, get, set)
}
