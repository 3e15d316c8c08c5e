package ui

import (
	"reflect"
	"slices"
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

// TestSettingsEveryFieldRoundTrips: the person changes every row of the
// form away from the defaults; every field of the settings read back
// changes, and a new form shows them all again, unchanged on Save.
func TestSettingsEveryFieldRoundTrips(t *testing.T) {
	test.NewTempApp(t)
	def := store.DefaultSettings()
	f := newSettingsForm(def, permission.PolicyAsk)
	for _, row := range f.rows {
		switch w := row.Widget.(type) {
		case *escCheck:
			w.SetChecked(!w.Checked)
		case *escSelect:
			w.SetSelected(w.Options[(slices.Index(w.Options, w.Selected)+1)%len(w.Options)])
		default:
			t.Fatalf("row %q has a %T: teach this test to change it", row.Text, w)
		}
	}
	s, policy := f.values()
	got, was := reflect.ValueOf(s), reflect.ValueOf(def)
	for sf := range reflect.TypeFor[store.Settings]().Fields() {
		if got.FieldByName(sf.Name).Equal(was.FieldByName(sf.Name)) {
			t.Errorf("%s stayed %v when its row changed", sf.Name, got.FieldByName(sf.Name))
		}
	}
	if err := s.Validate(); err != nil {
		t.Errorf("the form's choices are out of range: %v", err)
	}
	again, againPolicy := newSettingsForm(s, policy).values()
	if again != s || againPolicy != policy {
		t.Fatalf("shown again and saved: %+v %s, want %+v %s", again, againPolicy, s, policy)
	}
}
