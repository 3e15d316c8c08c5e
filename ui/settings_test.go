package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"trestle/app"
)

func TestSettingsFormRoundTrips(t *testing.T) {
	test.NewTempApp(t)
	tests := []struct {
		name   string
		s      app.Settings
		policy string
	}{
		{"defaults", app.DefaultSettings(), app.PolicyAsk},
		{"changed", app.Settings{Listener: false, TabWidth: 8, Theme: app.ThemeLight, FontSize: 16, HideIgnored: true, EvalDeadline: 30, EvalMemoryMiB: 2048, ChangeSetRetentionDays: 90}, app.PolicyDeny},
		{"retention set elsewhere", app.Settings{TabWidth: 4, Theme: app.ThemeDark, EvalDeadline: 10, ChangeSetRetentionDays: 12}, app.PolicyAllow},
		{"memory set elsewhere", app.Settings{TabWidth: 4, Theme: app.ThemeDark, EvalDeadline: 10, EvalMemoryMiB: 3000, ChangeSetRetentionDays: 30}, app.PolicyAsk},
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
	dark := newTheme(app.Settings{Theme: app.ThemeDark, FontSize: 18})
	def := theme.DefaultTheme()
	if got, want := dark.Color(theme.ColorNameBackground, theme.VariantLight), def.Color(theme.ColorNameBackground, theme.VariantDark); got != want {
		t.Fatalf("dark theme background %v, want %v", got, want)
	}
	if got := dark.Size(theme.SizeNameText); got != 18 {
		t.Fatalf("text size %v", got)
	}
	sys := newTheme(app.DefaultSettings())
	if got, want := sys.Color(theme.ColorNameBackground, theme.VariantLight), def.Color(theme.ColorNameBackground, theme.VariantLight); got != want {
		t.Fatalf("system theme ignores the variant")
	}
	if sys.Size(theme.SizeNameText) != def.Size(theme.SizeNameText) {
		t.Fatal("default text size changed")
	}
}
