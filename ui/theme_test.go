package ui

import (
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"trestle/app/store"
)

// luminance is a colour's relative luminance (WCAG 2.x), over white
// where it is translucent.
func luminance(c color.Color) float64 {
	r, g, b, a := c.RGBA()
	lin := func(v uint32) float64 {
		x := (float64(v) + float64(0xffff-a)) / 0xffff // premultiplied, over white
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG's contrast ratio of two colours, 1 to 21.
func contrast(a, b color.Color) float64 {
	x, y := luminance(a), luminance(b)
	if x < y {
		x, y = y, x
	}
	return (x + 0.05) / (y + 0.05)
}

// TestThemeTextContrast: in the light and the dark theme, every colour
// the window draws text in (body, muted labels, placeholders and
// comments, keywords, strings, numbers, problems, links) reads at WCAG
// AA's 4.5:1 on every background text sits on (the window, entries,
// dialogs, menus, headers, buttons), and a coloured button's label on
// its colour.
func TestThemeTextContrast(t *testing.T) {
	texts := []fyne.ThemeColorName{theme.ColorNameForeground, theme.ColorNameDisabled, theme.ColorNamePlaceHolder,
		theme.ColorNamePrimary, theme.ColorNameHyperlink, theme.ColorNameSuccess, theme.ColorNameWarning, theme.ColorNameError}
	backgrounds := []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameInputBackground,
		theme.ColorNameOverlayBackground, theme.ColorNameMenuBackground, theme.ColorNameHeaderBackground, theme.ColorNameButton}
	onColour := map[fyne.ThemeColorName]fyne.ThemeColorName{
		theme.ColorNameForegroundOnPrimary: theme.ColorNamePrimary, theme.ColorNameForegroundOnSuccess: theme.ColorNameSuccess,
		theme.ColorNameForegroundOnWarning: theme.ColorNameWarning, theme.ColorNameForegroundOnError: theme.ColorNameError,
	}
	for _, variant := range []string{store.ThemeLight, store.ThemeDark} {
		s := store.DefaultSettings()
		s.Theme = variant
		th := newTheme(s)
		check := func(text, bg fyne.ThemeColorName) {
			fg, back := th.Color(text, 0), th.Color(bg, 0)
			if r := contrast(fg, back); r < 4.5 {
				t.Errorf("%s theme: %s %v on %s %v is %.2f:1, want 4.5:1", variant, text, fg, bg, back, r)
			}
		}
		for _, text := range texts {
			for _, bg := range backgrounds {
				check(text, bg)
			}
		}
		for text, bg := range onColour {
			check(text, bg)
		}
	}
}
