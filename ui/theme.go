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

// Color returns the colour for the chosen variant: Fyne's default, but
// for the colours text is drawn in (textColors).
func (t *workbenchTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.variant != nil {
		v = *t.variant
	}
	if c, ok := textColors[v][n]; ok {
		return c
	}
	return t.Theme.Color(n, v)
}

// textColors replace Fyne's default colours that text is drawn in where
// they read badly: in the light variant muted labels (Disabled: Fyne's
// low-importance text), placeholders and comments were 1.3:1 to 3.5:1 on
// white, strings (Success) 1.5:1, numbers (Warning) 2.2:1, and the body
// text a mid grey; in the dark one muted labels were 1.6:1 and links and
// keywords (Primary) 3.3:1 on menus. Each is now at least WCAG AA's 4.5:1
// on every background text sits on, and so is the text on a coloured
// button (TestThemeTextContrast).
var textColors = map[fyne.ThemeVariant]map[fyne.ThemeColorName]color.Color{
	theme.VariantLight: {
		theme.ColorNameForeground:  color.NRGBA{R: 0x24, G: 0x24, B: 0x24, A: 0xff},
		theme.ColorNameDisabled:    color.NRGBA{R: 0x6b, G: 0x6b, B: 0x6b, A: 0xff},
		theme.ColorNamePlaceHolder: color.NRGBA{R: 0x6b, G: 0x6b, B: 0x6b, A: 0xff},
		theme.ColorNamePrimary:     color.NRGBA{R: 0x26, G: 0x66, B: 0xe2, A: 0xff},
		theme.ColorNameHyperlink:   color.NRGBA{R: 0x26, G: 0x66, B: 0xe2, A: 0xff},
		theme.ColorNameSuccess:     color.NRGBA{R: 0x22, G: 0x7c, B: 0x1c, A: 0xff},
		theme.ColorNameWarning:     color.NRGBA{R: 0x9e, G: 0x5e, B: 0x00, A: 0xff},
		theme.ColorNameError:       color.NRGBA{R: 0xc8, G: 0x37, B: 0x2c, A: 0xff},
	},
	theme.VariantDark: {
		theme.ColorNameDisabled:            color.NRGBA{R: 0x92, G: 0x92, B: 0x93, A: 0xff},
		theme.ColorNamePrimary:             color.NRGBA{R: 0x58, G: 0x8f, B: 0xf8, A: 0xff},
		theme.ColorNameHyperlink:           color.NRGBA{R: 0x58, G: 0x8f, B: 0xf8, A: 0xff},
		theme.ColorNameForegroundOnPrimary: color.NRGBA{R: 0x17, G: 0x17, B: 0x18, A: 0xff},
		theme.ColorNameError:               color.NRGBA{R: 0xf6, G: 0x5f, B: 0x54, A: 0xff},
	},
}

// Size returns the chosen text size, else the default sizes.
func (t *workbenchTheme) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNameText && t.textSize > 0 {
		return t.textSize
	}
	return t.Theme.Size(n)
}
