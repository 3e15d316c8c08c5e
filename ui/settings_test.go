package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"trestle/app/permission"
	"trestle/app/store"
)

func TestSettingsFormRoundTrips(t *testing.T) {
	test.NewTempApp(t)
	tests := []struct {
		name   string
		s      store.Settings
		policy string
	}{
		{"defaults", store.DefaultSettings(), permission.PolicyAsk},
		{"changed", store.Settings{Listener: false, TabWidth: 8, Theme: store.ThemeLight, FontSize: 16, HideIgnored: true, EvalDeadline: 30, EvalMemoryMiB: 2048, ChangeSetRetentionDays: 90}, permission.PolicyDeny},
		{"retention set elsewhere", store.Settings{TabWidth: 4, Theme: store.ThemeDark, EvalDeadline: 10, ChangeSetRetentionDays: 12}, permission.PolicyAllow},
		{"memory set elsewhere", store.Settings{TabWidth: 4, Theme: store.ThemeDark, EvalDeadline: 10, EvalMemoryMiB: 3000, ChangeSetRetentionDays: 30}, permission.PolicyAsk},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, p := newSettingsForm(tt.s, tt.policy).values()
			if s != tt.s || p != tt.policy {
				t.Fatalf("got %+v %s, want %+v %s", s, p, tt.s, tt.policy)
			}
		})
	}
}

func TestThemeFollowsTheSettings(t *testing.T) {
	dark := newTheme(store.Settings{Theme: store.ThemeDark, FontSize: 18})
	def := theme.DefaultTheme()
	if got, want := dark.Color(theme.ColorNameBackground, theme.VariantLight), def.Color(theme.ColorNameBackground, theme.VariantDark); got != want {
		t.Fatalf("dark theme background %v, want %v", got, want)
	}
	if got := dark.Size(theme.SizeNameText); got != 18 {
		t.Fatalf("text size %v", got)
	}
	sys := newTheme(store.DefaultSettings())
	if got, want := sys.Color(theme.ColorNameBackground, theme.VariantLight), def.Color(theme.ColorNameBackground, theme.VariantLight); got != want {
		t.Fatalf("system theme ignores the variant")
	}
	if sys.Size(theme.SizeNameText) != def.Size(theme.SizeNameText) {
		t.Fatal("default text size changed")
	}
}
