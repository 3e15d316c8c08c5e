package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/textbuf"
	"trestle/app/workbench"
)

// Fyne's test driver has no keyboard: test.Type hands runes to one
// widget, and nothing runs a main menu's shortcuts. pressShortcut and
// pressKey deliver a key press the way the desktop driver does
// (fyne.io/fyne/v2/internal/driver/glfw/window.go, processKeyPressed and
// triggersShortcut, Fyne 2.7): a shortcut goes to the main menu's items
// first, then to the focused widget, then to the canvas's own shortcuts;
// a plain key goes to the focused widget, or to the canvas with nothing
// focused. With a dialog or pop-up on top, "focused" is what is focused
// in it (each overlay has its own focus manager), as on the desktop.

// pressShortcut is a person pressing sc in win.
func pressShortcut(win fyne.Window, sc fyne.Shortcut) {
	if m := win.MainMenu(); m != nil {
		for _, menu := range m.Items {
			if triggerMenuShortcut(menu, sc) {
				return
			}
		}
	}
	c := win.Canvas()
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(sc)
		return
	}
	c.(fyne.Shortcutable).TypedShortcut(sc)
}

func triggerMenuShortcut(m *fyne.Menu, sc fyne.Shortcut) bool {
	for _, it := range m.Items {
		if it.Shortcut != nil && it.Shortcut.ShortcutName() == sc.ShortcutName() && it.Action != nil {
			it.Action()
			return true
		}
		if it.ChildMenu != nil && triggerMenuShortcut(it.ChildMenu, sc) {
			return true
		}
	}
	return false
}

// pressKey is a person pressing a key without modifiers in win.
func pressKey(win fyne.Window, key fyne.KeyName) {
	c := win.Canvas()
	ev := &fyne.KeyEvent{Name: key}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
	} else if fn := c.OnTypedKey(); fn != nil {
		fn(ev)
	}
}

// typeText is a person typing s in win: each rune goes to what has the
// keyboard, as the desktop driver's character callback sends it.
func typeText(t *testing.T, win fyne.Window, s string) {
	t.Helper()
	c := win.Canvas()
	for _, r := range s {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		} else if fn := c.OnTypedRune(); fn != nil {
			fn(r)
		} else {
			t.Fatalf("typing %q: nothing has the keyboard", s)
		}
	}
}

// ctrl is Ctrl+key as the desktop driver makes it from a key press, with
// Shift when shift is set; Ctrl+A, X, C and V are Fyne's own shortcuts.
func ctrl(key fyne.KeyName, shift bool) fyne.Shortcut {
	if !shift {
		switch key {
		case fyne.KeyA:
			return &fyne.ShortcutSelectAll{}
		case fyne.KeyX:
			return &fyne.ShortcutCut{Clipboard: fyne.CurrentApp().Clipboard()}
		case fyne.KeyC:
			return &fyne.ShortcutCopy{Clipboard: fyne.CurrentApp().Clipboard()}
		case fyne.KeyV:
			return &fyne.ShortcutPaste{Clipboard: fyne.CurrentApp().Clipboard()}
		case fyne.KeyZ:
			return &fyne.ShortcutUndo{}
		}
	}
	mod := fyne.KeyModifierShortcutDefault
	if shift {
		mod |= fyne.KeyModifierShift
	}
	return &desktop.CustomShortcut{KeyName: key, Modifier: mod}
}

const badlyFormatted = "package main\n\nfunc main() {\n\tx    :=   1\n\t_ = x\n}\n"

// TestFormatOnSaveThroughCtrlS: Ctrl+S pressed in the window, as the
// desktop driver delivers it (the File menu's Save shortcut runs before
// the editor sees the key), formats with the real gopls and writes the
// formatted text; so do File ▸ Save from the palette and Save All.
func TestFormatOnSaveThroughCtrlS(t *testing.T) {
	for _, tc := range []struct {
		name string
		save func(t *testing.T, w *Window)
	}{
		{"ctrl+s", func(t *testing.T, w *Window) { pressShortcut(w.win, ctrl(fyne.KeyS, false)) }},
		{"ctrl+shift+s", func(t *testing.T, w *Window) { pressShortcut(w.win, ctrl(fyne.KeyS, true)) }},
		{"palette", func(t *testing.T, w *Window) {
			pressShortcut(w.win, ctrl(fyne.KeyP, true))
			typeText(t, w.win, "File › Save")
			pressKey(w.win, fyne.KeyReturn)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, q := goplsWindowOn(t, map[string]string{"main.go": badlyFormatted, "lib.go": goplsLib})
			w.installActions(Actions{})
			e := openGoEditor(t, w, "main.go")
			settle(t, w)
			typeAt(e, 5, 5, " ") // "_ =  x": an edit, so that Save All has something to save
			tc.save(t, w)
			deadline := time.Now().Add(time.Minute)
			drainUntil(t, w, q, "the formatted save", func() bool {
				b, _ := os.ReadFile(w.project.Root + "/main.go")
				if strings.HasPrefix(w.status.message.Text, "saved without") || time.Now().After(deadline) {
					t.Fatalf("status %q; modified %v; editor %q; disk %q", w.status.message.Text, e.Buffer().Modified(), e.Buffer().Text(), b)
				}
				return string(b) == goplsMain && !e.Buffer().Modified()
			})
		})
	}
}

// TestRenameDialogOwnsTheKeyboard: F2 in an editor opens the rename
// dialog with its field focused; Ctrl+A and Ctrl+X pressed then act on the
// field, not on the file behind it; typed text replaces the name and Enter
// renames (issue 22: Ctrl+A, Ctrl+X cut the whole db.go behind the dialog).
func TestRenameDialogOwnsTheKeyboard(t *testing.T) {
	w, q := goplsWindowOn(t, map[string]string{"main.go": renameMain, "lib.go": goplsLib})
	w.installActions(Actions{})
	main := openGoEditor(t, w, "main.go")
	main.SetCaret(textbuf.Pos{Line: 4, Col: 6}) // on Double
	pressKey(w.win, fyne.KeyF2)
	if w.win.Canvas().Overlays().Top() == nil {
		t.Fatal("F2 opened no dialog")
	}
	field, ok := w.win.Canvas().Focused().(*escEntry)
	if !ok {
		t.Fatalf("the keyboard is in %T, not the rename field", w.win.Canvas().Focused())
	}
	if field.Size().Width < 380 {
		t.Errorf("the rename field is %v wide", field.Size().Width)
	}
	pressShortcut(w.win, ctrl(fyne.KeyA, false))
	pressShortcut(w.win, ctrl(fyne.KeyX, false))
	pressShortcut(w.win, ctrl(fyne.KeyS, false)) // nor does a save or a close reach the file
	pressShortcut(w.win, ctrl(fyne.KeyW, false))
	if main.Buffer().Text() != renameMain || len(w.tabs.byItem) != 1 {
		t.Fatalf("keys reached the editor behind the dialog:\n%s", main.Buffer().Text())
	}
	if field.Text != "" {
		t.Fatalf("Ctrl+A, Ctrl+X in the field left %q", field.Text)
	}
	typeText(t, w.win, "Twice")
	pressKey(w.win, fyne.KeyReturn)
	if w.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Enter did not close the rename dialog")
	}
	drainUntil(t, w, q, "the rename", func() bool { return main.Buffer().Line(4) == "\t_ = Twice(x)" })
}

// TestDialogOwnsTheKeyboard: with a dialog open over an editor, no window
// shortcut reaches what is behind it: Select All and Cut, Save, Close Tab,
// Go to File, Settings again (it opened twice, stacked) or a tab switch.
func TestDialogOwnsTheKeyboard(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	w.installActions(Actions{})
	for _, f := range []string{"a.go", "b.go"} {
		w.OpenOnMain(f)
		w.loading.Wait() // one at a time: the reads race
	}
	b := w.tabs.find("b.go").view
	typeText(t, w.win, "// typed\n")
	pressShortcut(w.win, ctrl(fyne.KeyComma, false))
	if n := len(w.win.Canvas().Overlays().List()); n != 1 {
		t.Fatalf("Ctrl+, opened %d overlays", n)
	}
	for _, sc := range []fyne.Shortcut{ctrl(fyne.KeyA, false), ctrl(fyne.KeyX, false), ctrl(fyne.KeyS, false),
		ctrl(fyne.KeyW, false), ctrl(fyne.KeyP, false), ctrl(fyne.KeyComma, false), ctrl(fyne.KeyTab, false)} {
		pressShortcut(w.win, sc)
	}
	w.tabs.saving.Wait()
	if n := len(w.win.Canvas().Overlays().List()); n != 1 {
		t.Errorf("%d overlays after the shortcuts, want the one Settings dialog", n)
	}
	if got := b.Buffer().Text(); got != "// typed\npackage b\n" || !b.Buffer().Modified() {
		t.Errorf("b.go behind the dialog: modified %v, %q", b.Buffer().Modified(), got)
	}
	if onDisk(t, w, "b.go") != "package b\n" || w.tabs.active() != "b.go" || len(w.tabs.byItem) != 2 {
		t.Errorf("a shortcut acted behind the dialog: b.go on disk %q, active %q, %d tabs", onDisk(t, w, "b.go"), w.tabs.active(), len(w.tabs.byItem))
	}
	pressKey(w.win, fyne.KeyEscape)
	if w.win.Canvas().Overlays().Top() != nil {
		t.Fatal("Escape did not close Settings")
	}
	pressShortcut(w.win, ctrl(fyne.KeyA, false)) // the dialog gone, keys reach the editor again
	pressShortcut(w.win, ctrl(fyne.KeyX, false))
	if b.Buffer().Text() != "" {
		t.Errorf("after the dialog closed, Ctrl+A, Ctrl+X left %q", b.Buffer().Text())
	}
}

// TestGoToFileGivesTheEditorTheKeyboard: with the keyboard in the search
// field, Go to File (Ctrl+P, a name, Enter) opens the file and what the
// person types next lands in its editor, not in the field.
func TestGoToFileGivesTheEditorTheKeyboard(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n", "lib/lib.go": "package lib\n"})
	w.installActions(Actions{})
	w.OpenOnMain("a.go")
	w.loading.Wait()
	pressShortcut(w.win, ctrl(fyne.KeyF, true)) // Find in Files: the keyboard in its field
	pressShortcut(w.win, ctrl(fyne.KeyP, false))
	w.loading.Wait() // the listing
	typeText(t, w.win, "lib.go")
	pressKey(w.win, fyne.KeyReturn)
	w.loading.Wait()
	typeText(t, w.win, "x")
	if got := w.tabs.find("lib/lib.go"); got == nil || got.view.Buffer().Text() != "xpackage lib\n" {
		t.Fatalf("the typed x is not in lib.go's editor; the search field has %q", w.panes.search.pattern.Text)
	}
	if w.panes.search.pattern.Text != "" {
		t.Errorf("the search field got %q", w.panes.search.pattern.Text)
	}
}

// TestPaneCommandFocusesThePane: View ▸ Eval Pane from the palette shows
// the Eval pane and gives its line the keyboard; Search Pane its field.
func TestPaneCommandFocusesThePane(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	w.installActions(Actions{})
	w.OpenOnMain("a.go")
	w.loading.Wait()
	for _, tc := range []struct {
		pane string
		want fyne.Focusable
	}{{"Eval", w.panes.eval.input}, {"Search", w.panes.search.pattern}} {
		pressShortcut(w.win, ctrl(fyne.KeyP, true))
		typeText(t, w.win, "View › "+tc.pane+" Pane")
		pressKey(w.win, fyne.KeyReturn)
		if got := w.win.Canvas().Focused(); got != tc.want || w.panes.tabs.Selected().Text != tc.pane {
			t.Errorf("%s Pane: pane %q shown, keyboard in %T", tc.pane, w.panes.tabs.Selected().Text, got)
		}
	}
}

// TestTabSwitchKeys: Ctrl+Tab and Ctrl+PageDown select the next tab,
// Ctrl+Shift+Tab and Ctrl+PageUp the previous one, wrapping, with the
// keyboard in the editor (which would otherwise take the key for itself).
func TestTabSwitchKeys(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n", "c.go": "package c\n"})
	w.installActions(Actions{})
	for _, f := range []string{"a.go", "b.go", "c.go"} {
		w.OpenOnMain(f)
		w.loading.Wait()
	}
	for _, step := range []struct {
		sc   fyne.Shortcut
		want string
	}{
		{ctrl(fyne.KeyTab, false), "a.go"},
		{ctrl(fyne.KeyPageDown, false), "b.go"},
		{ctrl(fyne.KeyTab, true), "a.go"},
		{ctrl(fyne.KeyPageUp, false), "c.go"},
	} {
		pressShortcut(w.win, step.sc)
		if got := w.tabs.active(); got != step.want {
			t.Fatalf("%s: active %q, want %q", step.sc.ShortcutName(), got, step.want)
		}
		if w.win.Canvas().Focused() != fyne.Focusable(w.tabs.activeEditor().Page()) {
			t.Fatalf("%s: the keyboard is not in %s's editor", step.sc.ShortcutName(), step.want)
		}
	}
}

// TestAgentOpenMovesKeysOnlyFromAHiddenEditor: trestle_open while the
// person types in the editor moves the keyboard to the editor now shown
// (keys never go to the hidden one); while the person types in the Eval
// line, the keyboard stays there.
func TestAgentOpenMovesKeysOnlyFromAHiddenEditor(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n", "c.go": "package c\n"})
	w.installActions(Actions{})
	w.OpenOnMain("a.go")
	w.loading.Wait()
	if err := w.Open(context.Background(), resolved(t, w, "b.go"), 0); err != nil {
		t.Fatal(err)
	}
	typeText(t, w.win, "x")
	if got := w.tabs.find("b.go").view.Buffer().Text(); got != "xpackage b\n" {
		t.Fatalf("after the agent opened b.go, typing gave b.go %q (a.go %q)", got, w.tabs.find("a.go").view.Buffer().Text())
	}
	w.win.Canvas().Focus(w.panes.eval.input)
	if err := w.Open(context.Background(), resolved(t, w, "c.go"), 0); err != nil {
		t.Fatal(err)
	}
	typeText(t, w.win, "y")
	if w.panes.eval.input.Text != "y" || w.tabs.active() != "c.go" {
		t.Fatalf("the agent's open took the keyboard from the Eval line: %q, active %q", w.panes.eval.input.Text, w.tabs.active())
	}
}

// TestTestAtCursorSaysWhenTheFileDoesNotParse: Ctrl+Shift+T in a test
// file that does not parse runs nothing and says where it breaks, instead
// of quietly running every test.
func TestTestAtCursorSaysWhenTheFileDoesNotParse(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{
		"go.mod":       "module example.com/calc\n\ngo 1.22\n",
		"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif {\n}\n",
	})
	w.installActions(Actions{})
	w.OpenOnMain("calc_test.go")
	w.loading.Wait()
	w.tabs.activeEditor().SetCaret(textbuf.Pos{Line: 5})
	pressShortcut(w.win, ctrl(fyne.KeyT, true))
	if got := w.status.message.Text; !strings.Contains(got, "calc_test.go:6") || !strings.Contains(got, "Test All") {
		t.Fatalf("status after Test at Cursor in a broken file: %q", got)
	}
}

// TestOpenRecentOfAnOpenProjectSaysSo: Open Recent on a project another
// window has open starts no window and says which one has it; the
// project of this window is not opened again either.
func TestOpenRecentOfAnOpenProjectSaysSo(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	other := t.TempDir()
	var started []string
	w.installActions(Actions{OpenWindow: func(dir string) error {
		if dir == other {
			return fmt.Errorf("%s is already open in Trestle window 42: %w", dir, ErrProjectOpen)
		}
		started = append(started, dir)
		return nil
	}})
	w.menu.build([]string{other, w.project.Root})
	recent := menuItemNamed(t, w.win.MainMenu().Items[0], "Open Recent")
	recent.ChildMenu.Items[0].Action()
	if msg := dialogText(w.win); !strings.Contains(msg, "already open in Trestle window 42") {
		t.Fatalf("Open Recent of an open project says %q", msg)
	}
	pressKey(w.win, fyne.KeyEscape)
	w.menu.openWindow(w.project.Root)
	if len(started) != 0 || !strings.Contains(w.status.message.Text, "open in this window") {
		t.Fatalf("started %q; status %q", started, w.status.message.Text)
	}
	if u := projectParent(w.project.Root); u == nil || u.Path() != filepath.Dir(w.project.Root) {
		t.Errorf("the folder dialog starts in %v, want the project's parent", u)
	}
}

func menuItemNamed(t *testing.T, m *fyne.Menu, label string) *fyne.MenuItem {
	t.Helper()
	for _, it := range m.Items {
		if it.Label == label {
			return it
		}
	}
	t.Fatalf("menu %s has no %q", m.Label, label)
	return nil
}

// dialogText is the text of the labels of the dialog on top of win.
func dialogText(win fyne.Window) string {
	top := win.Canvas().Overlays().Top()
	if top == nil {
		return ""
	}
	var b strings.Builder
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// settle waits until gopls has loaded the module: a format asked for
// before could take longer than formatTimeout on a busy machine, and the
// file would be saved unformatted (as it should be).
func settle(t *testing.T, w *Window) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := w.gopls.client.Settle(ctx, 0); err != nil {
		t.Fatal(err)
	}
	w.gopls.formatBound = time.Minute
}

// TestStatusMessageKeepsRoomAt1024: at 1024×700 a status message keeps
// messageMin of the status bar (it was cut to "T…"), and an agent's
// 412-character client name neither widens the window nor pushes the
// message out.
func TestStatusMessageKeepsRoomAt1024(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(1024, 700))
	w.status.mcp.SetText(mcpText("127.0.0.1:43219", nil))
	w.status.gopls.SetText("gopls: restarting")
	w.status.agents.SetText(agentsText([]workbench.Client{{Name: strings.Repeat("claude-code-", 34) + "end"}}, 0))
	w.win.Content().Refresh()
	w.status.notify("Test at Cursor: calc_test.go:6:5: expected operand, found '{'") // after the layout: no re-layout for a message
	if min := w.win.Content().MinSize().Width; min > 1024 {
		t.Fatalf("the window needs %v px", min)
	}
	if got := w.status.message.Size().Width; got+0.5 < messageMin { // it gives way first, to messageMin (statusrow.go)
		t.Fatalf("the status message is %v px wide at 1024, want at least %v", got, messageMin)
	}
}

// TestBellListOpensAboveTheBell: the agents' messages open just above the
// bell at the bottom right, not at the window's top-left corner.
func TestBellListOpensAboveTheBell(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(1024, 700))
	test.Tap(w.notices.bell)
	top := w.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("the bell opened nothing")
	}
	bell := fyne.CurrentApp().Driver().AbsolutePositionForObject(w.notices.bell)
	var box fyne.CanvasObject
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok && l.Text == "Messages from agents" {
			box = l
		}
	}
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(box)
	if at.X < 400 || at.Y < 100 || at.Y > bell.Y {
		t.Fatalf("the list's heading is at %v, the bell at %v", at, bell)
	}
}

// TestFocusKeys: Ctrl+0 gives the file tree the keyboard, Ctrl+1 the
// editor, Ctrl+2 the bottom pane shown (the Eval line).
func TestFocusKeys(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	w.installActions(Actions{})
	w.OpenOnMain("a.go")
	w.loading.Wait()
	for _, step := range []struct {
		key  fyne.KeyName
		want fyne.Focusable
	}{
		{fyne.Key0, w.tree},
		{fyne.Key1, w.tabs.activeEditor().Page()},
		{fyne.Key2, w.panes.eval.input},
	} {
		pressShortcut(w.win, ctrl(step.key, false))
		if got := w.win.Canvas().Focused(); got != step.want {
			t.Errorf("Ctrl+%s: the keyboard is in %T", step.key, got)
		}
	}
}

// TestPaletteRunsGoplsCommands: the command palette lists gopls's
// actions; Format Document run from it formats the editor (unsaved), and
// Go to Definition opens the declaration.
func TestPaletteRunsGoplsCommands(t *testing.T) {
	w, q := goplsWindowOn(t, map[string]string{"main.go": renameMain, "lib.go": goplsLib})
	w.installActions(Actions{})
	labels := map[string]bool{}
	for _, c := range menuCommands(w.win.MainMenu()) {
		labels[c.label] = true
	}
	for _, l := range []string{"Edit › Go to Definition", "Edit › Find References", "Edit › Rename Symbol", "Edit › Outline", "Edit › Format Document"} {
		if !labels[l] {
			t.Errorf("the palette lacks %q", l)
		}
	}
	e := openGoEditor(t, w, "main.go")
	settle(t, w)
	typeAt(e, 4, 4, "   ") // x    := 1
	palette := func(cmd string) {
		pressShortcut(w.win, ctrl(fyne.KeyP, true))
		typeText(t, w.win, cmd)
		pressKey(w.win, fyne.KeyReturn)
	}
	palette("Edit › Format Document")
	drainUntil(t, w, q, "the format", func() bool {
		if e.Buffer().Text() != renameMain && w.status.message.Text != "" {
			t.Logf("status: %s", w.status.message.Text)
		}
		return e.Buffer().Text() == renameMain
	})
	e.SetCaret(textbuf.Pos{Line: 4, Col: 6}) // on Double
	palette("Edit › Go to Definition")
	drainUntil(t, w, q, "lib.go to open", func() bool { return w.tabs.active() == "lib.go" })
}

// TestLongClientNameKeepsTheBellListInTheWindow: a 412-character client
// name is cut in the bell's list, which stays within the window.
func TestLongClientNameKeepsTheBellListInTheWindow(t *testing.T) {
	w := newTestWindowWith(t, map[string]string{"a.go": "package a\n"})
	w.installActions(Actions{})
	w.win.Resize(fyne.NewSize(1024, 700))
	w.notices.add(notice{client: strings.Repeat("claude-code-", 34) + "end", message: "hello", at: time.Now()})
	test.Tap(w.notices.bell)
	if got := w.notices.popup.MinSize().Width; got > 1024 {
		t.Fatalf("the bell's list needs %v px", got)
	}
}
