package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"trestle/app/store"
)

// workbenchTheme is Fyne's default theme with the person's choices laid
// over it: a fixed light or dark variant, and a text size.
type workbenchTheme struct {
	fyne.Theme
	variant  *fyne.ThemeVariant // nil: follow the system
	textSize float32            // 0: the default size
}

// newTheme builds the theme for the settings.
func newTheme(s store.Settings) fyne.Theme {
	t := &workbenchTheme{Theme: theme.DefaultTheme(), textSize: s.FontSize}
	switch s.Theme {
	case store.ThemeLight:
		v := theme.VariantLight
		t.variant = &v
	case store.ThemeDark:
		v := theme.VariantDark
		t.variant = &v
	}
	return t
}

// Color returns the default colour for the chosen variant.
func (t *workbenchTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.variant != nil {
		v = *t.variant
	}
	return t.Theme.Color(n, v)
}

// Size returns the chosen text size, else the default sizes.
func (t *workbenchTheme) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNameText && t.textSize > 0 {
		return t.textSize
	}
	return t.Theme.Size(n)
}
