package ui

import (
	"reflect"
	"testing"

	"fyne.io/fyne/v2/test"

	"trestle/app/permission"
	"trestle/app/store"
)

// TestSettingsTableCoversEveryField: every field of store.Settings, and
// the policy, has exactly one row in settingTable, so the dialog cannot
// forget one and zero it on Save.
func TestSettingsTableCoversEveryField(t *testing.T) {
	rows := map[string]int{}
	for _, row := range settingTable() {
		rows[row.field]++
	}
	want := []string{"Policy"}
	for f := range reflect.TypeFor[store.Settings]().Fields() {
		want = append(want, f.Name)
	}
	for _, name := range want {
		if rows[name] != 1 {
			t.Errorf("field %s has %d rows in settingTable, want 1", name, rows[name])
		}
		delete(rows, name)
	}
	for name := range rows {
		t.Errorf("settingTable row for %q, which store.Settings does not have", name)
	}
}

// TestSettingsEveryFieldRoundTrips: settings with every field away from
// its zero value and its default come back from the form unchanged.
func TestSettingsEveryFieldRoundTrips(t *testing.T) {
	test.NewTempApp(t)
	s := store.Settings{Listener: true, TabWidth: 2, Theme: store.ThemeDark, FontSize: 14, HideIgnored: true,
		EvalDeadline: 60, EvalMemoryMiB: 1024, ChangeSetRetentionDays: 7, FormatOnSave: true, UnsavedBeforeRun: store.UnsavedAsk}
	def := reflect.ValueOf(store.DefaultSettings())
	for sf, f := range reflect.ValueOf(s).Fields() {
		if f.IsZero() || (f.Kind() != reflect.Bool && f.Equal(def.FieldByName(sf.Name))) {
			t.Fatalf("the test's settings leave %s at its zero value or default: set it", sf.Name)
		}
	}
	got, policy := newSettingsForm(s, permission.PolicyAllow).values()
	if got != s || policy != permission.PolicyAllow {
		t.Fatalf("got %+v %s, want %+v %s", got, policy, s, permission.PolicyAllow)
	}
}
