package ui

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// toast is one notice on screen: it shows for toastLifetime, then fades
// out over toastFade and goes (the notice stays in the list). Hovering it
// holds it at full strength; tapping it keeps it until dismissed. Main
// goroutine only.
type toast struct {
	n          *notice
	box        fyne.CanvasObject // its toastCard
	bg, shadow *canvas.Rectangle
	over       *container.ThemeOverride // draws its content in look
	look       *fadeTheme
	stop       func() // cancels its lifetime or its fade
	kept       bool   // tapped: no lifetime any more
}

// animateOnMain is the real noticeCenter.animate: a Fyne animation, whose
// ticks the driver runs on the main goroutine before each frame.
func animateOnMain(d time.Duration, tick func(float32)) func() {
	a := fyne.NewAnimation(d, tick)
	a.Curve = fyne.AnimationEaseIn
	a.Start()
	return a.Stop
}

// live (re)starts t's lifetime, after which it fades out.
func (c *noticeCenter) live(t *toast) {
	t.stop()
	t.stop = c.after(toastLifetime, func() { c.fadeOut(t) })
}

// fadeOut fades t out and then takes it off the screen.
func (c *noticeCenter) fadeOut(t *toast) {
	t.stop = func() {}
	stop := c.animate(toastFade, func(done float32) {
		if done >= 1 {
			c.removeToast(t)
			return
		}
		t.setAlpha(1 - done)
	})
	if c.showing(t) { // Fyne's test driver has finished it already
		t.stop = stop
	}
}

// hold stops t's lifetime or fade and shows it at full strength.
func (c *noticeCenter) hold(t *toast) {
	t.stop()
	t.stop = func() {}
	t.setAlpha(1)
}

// showing reports whether t is on the screen.
func (c *noticeCenter) showing(t *toast) bool {
	for _, x := range c.toasts {
		if x == t {
			return true
		}
	}
	return false
}

// toastCard puts o on the overlay background with a border and a shadow,
// as a popup is drawn, themed so that t can fade, and answering the mouse.
func (c *noticeCenter) toastCard(t *toast, o fyne.CanvasObject) fyne.CanvasObject {
	t.bg = canvas.NewRectangle(color.Transparent)
	t.bg.StrokeWidth = 1
	t.bg.CornerRadius = theme.InputRadiusSize()
	t.shadow = canvas.NewRectangle(color.Transparent)
	t.shadow.CornerRadius = theme.InputRadiusSize()
	t.look = &fadeTheme{alpha: 1}
	t.over = container.NewThemeOverride(container.NewPadded(o), t.look)
	t.paint()
	card := &toastCard{content: container.New(shadowLayout{}, t.shadow, t.bg, t.over)}
	card.in = func() {
		if c.showing(t) {
			c.hold(t)
		}
	}
	card.out = func() {
		if c.showing(t) && !t.kept {
			c.live(t)
		}
	}
	card.tap = func() {
		if c.showing(t) {
			t.kept, t.n.seen = true, true
			c.hold(t)
			c.update()
		}
	}
	card.ExtendBaseWidget(card)
	return card
}

// setAlpha draws t at strength a, from 0 (gone) to 1.
func (t *toast) setAlpha(a float32) {
	if t.look.alpha == a {
		return
	}
	t.look.alpha = a
	t.paint()
	t.bg.Refresh()
	t.shadow.Refresh()
	t.over.Refresh()
}

// paint colours t's background and shadow at its strength.
func (t *toast) paint() {
	a, th, v := t.look.alpha, appTheme(), fyne.CurrentApp().Settings().ThemeVariant()
	t.bg.FillColor = fade(th.Color(theme.ColorNameOverlayBackground, v), a)
	t.bg.StrokeColor = fade(th.Color(theme.ColorNameInputBorder, v), a)
	t.shadow.FillColor = fade(color.NRGBA{A: 0x30}, a)
}

// fadeTheme is the app's theme with every colour's alpha scaled by
// alpha: a toast's content as it fades. (theme.Current would be the
// fadeTheme itself while the toast renders.)
type fadeTheme struct{ alpha float32 }

// appTheme is the app's theme, whatever is rendering.
func appTheme() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (f *fadeTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return fade(appTheme().Color(n, v), f.alpha)
}

func (f *fadeTheme) Font(s fyne.TextStyle) fyne.Resource { return appTheme().Font(s) }

func (f *fadeTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return appTheme().Icon(n) }

func (f *fadeTheme) Size(n fyne.ThemeSizeName) float32 { return appTheme().Size(n) }

// fade is c with its alpha scaled by a.
func fade(c color.Color, a float32) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = uint8(float32(n.A)*a + 0.5)
	return n
}

// toastCard is a toast's box: its content, and what hovering and tapping
// it do (its buttons take their own taps).
type toastCard struct {
	widget.BaseWidget
	content      fyne.CanvasObject
	in, out, tap func()
}

func (c *toastCard) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(c.content)
}

// MouseIn implements desktop.Hoverable: the toast holds.
func (c *toastCard) MouseIn(*desktop.MouseEvent) { c.in() }

// MouseMoved implements desktop.Hoverable.
func (c *toastCard) MouseMoved(*desktop.MouseEvent) {}

// MouseOut implements desktop.Hoverable: the toast's lifetime starts again.
func (c *toastCard) MouseOut() { c.out() }

// Tapped implements fyne.Tappable: the toast stays until dismissed.
func (c *toastCard) Tapped(*fyne.PointEvent) { c.tap() }
