package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// The menu bar from the keyboard.
//
// Fyne 2.7's desktop driver draws the main menu in the window (Linux and
// Windows) and opens it only on a lone Alt press and release; Alt+F and F10
// do nothing. So the window binds them itself: Alt and a menu's first
// letter open that menu, F10 opens the first; the arrows, Enter and
// Escape then work as the driver's menu bar makes them. Alt+letter is a
// main-menu shortcut (View ▸ Open Menu), which the driver runs before the
// focused widget; F10 is a plain key, which the focused widget gets: the
// editor, the tree and the entries pass it to the window's canvas.

// menuBar opens the menu bar's menus: the driver's bar in the real window,
// a recorder in tests.
type menuBar interface {
	// open opens the menu at index i of the main menu (0 the first).
	open(i int)
}

// driverMenuBar opens the desktop driver's menu bar through its canvas,
// which offers ToggleMenu (it opens the first menu and gives its title the
// keyboard, as Alt alone does); Right then walks to the i-th title.
type driverMenuBar struct{ c fyne.Canvas }

func (b driverMenuBar) open(i int) {
	t, ok := b.c.(interface{ ToggleMenu() })
	if !ok {
		return // the test driver and mobile have no menu bar to open
	}
	if barFocused(b.c) {
		t.ToggleMenu() // a menu is open: close it, to start again from the first
	}
	t.ToggleMenu()
	for range i {
		if f := b.c.Focused(); f != nil {
			f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
		}
	}
}

// barFocused reports whether the keyboard is in the driver's menu bar (a
// menu is open): its titles are the driver's unexported menuBarItem.
func barFocused(c fyne.Canvas) bool {
	f := c.Focused()
	return f != nil && strings.HasSuffix(fmt.Sprintf("%T", f), ".menuBarItem")
}

// openMenuItems are View ▸ Open Menu: Alt and the first letter of each
// menu's title open it (the titles' first letters are unique: File, Edit,
// View, Run, Agents, Help); F10 is shown beside the first for the person
// to read (the canvas's key handler runs it, see menuKeys).
func (k *keysUI) openMenuItems(menus []*fyne.Menu) *fyne.MenuItem {
	sub := fyne.NewMenu("")
	used := map[fyne.KeyName]bool{}
	for i, m := range menus {
		key := fyne.KeyName(strings.ToUpper(m.Label[:1]))
		if used[key] {
			continue
		}
		used[key] = true
		sub.Items = append(sub.Items, menuItem(m.Label, &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierAlt},
			func() { k.bar.open(i) }))
	}
	sub.Items = append(sub.Items, menuItem("Menu Bar", &desktop.CustomShortcut{KeyName: fyne.KeyF10}, func() { k.bar.open(0) }))
	item := fyne.NewMenuItem("Open Menu", nil)
	item.ChildMenu = sub
	return item
}

// menuKeys makes F10, which reaches the canvas when the focused widget
// passes it on (or nothing is focused), open the first menu, unless a
// dialog owns the keyboard. Main goroutine only.
func (k *keysUI) menuKeys() {
	c := k.w.win.Canvas()
	k.w.dialogs.arm() // Escape's handler first: it is set once per canvas
	prev := c.OnTypedKey()
	open := k.keyed(func() { k.bar.open(0) })
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyF10 {
			open()
			return
		}
		if prev != nil {
			prev(k)
		}
	})
}

// passWindowKey hands F10 from a focused widget to its window's canvas
// (menuKeys) and reports whether it did.
func passWindowKey(o fyne.CanvasObject, k *fyne.KeyEvent) bool {
	if k.Name != fyne.KeyF10 {
		return false
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(o); c != nil {
		if fn := c.OnTypedKey(); fn != nil {
			fn(k)
		}
	}
	return true
}
