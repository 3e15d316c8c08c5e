package ui

import (
	"context"
	"fmt"
	"path"
	"strings"

	"fyne.io/fyne/v2"

	"trestle/app/project"
	"trestle/app/quickopen"
)

// quickOpenUI is the window's part for Go to File and the command
// palette. It keeps between uses the last listing of the project's files,
// shown at once the next time while a fresh listing is read. It reaches
// the window's project, tabs and menu through w. Main goroutine only.
type quickOpenUI struct {
	w     *Window
	files []string
	open  *finder // the finder on screen, or nil
}

// showGoToFile opens Go to File (Ctrl+P): a fuzzy finder over the
// project's files (without what .gitignore ignores); "name:12" opens at
// line 12 and ":12" goes to line 12 of the active file. The listing is read
// off the main goroutine. It must be called on the main goroutine.
func (q *quickOpenUI) showGoToFile() {
	w := q.w
	f := q.newFinder("Go to file — name, name:line or :line")
	ranker := quickopen.NewRanker(q.files) // rescores only the last keystroke's matches
	f.rank = func(text string) []quickopen.Result {
		pattern, line := quickopen.ParseQuery(text)
		if pattern == "" && line > 0 {
			return nil // ":12" is a line of the active file
		}
		return ranker.Rank(pattern, finderLimit)
	}
	f.detail = func(r quickopen.Result) string {
		if dir := path.Dir(r.Name); dir != "." {
			return dir
		}
		return ""
	}
	f.noMatch = func(text string) string {
		pattern, _ := quickopen.ParseQuery(text)
		if strings.TrimSpace(pattern) == "" || q.files == nil {
			return "" // nothing asked, or a line of the active file; or not listed yet
		}
		return fmt.Sprintf("No file matches %q.", pattern)
	}
	f.pick = func(r quickopen.Result, text string) {
		pattern, line := quickopen.ParseQuery(text)
		switch {
		case pattern == "" && line > 0:
			if active := w.tabs.active(); active != "" {
				w.openAt(active, line)
			}
		case r.Index >= 0:
			w.openAt(r.Name, line)
		}
	}
	if len(q.files) == 0 {
		f.setStatus("Listing the project's files…")
		f.listing = true
	}
	f.show(w.win.Canvas())
	w.loading.Go(func() {
		files, more, err := w.project.ListFiles(context.Background(), "", "", project.MaxListLimit)
		w.onMain(func() {
			switch {
			case err != nil:
				f.setStatus(err.Error())
				if q.open == f {
					f.listed(false)
				}
				return
			case more:
				f.setStatus(fmt.Sprintf("The first %d files of the project (the rest are left off).", len(files)))
			default:
				f.setStatus(fmt.Sprintf("%d files", len(files)))
			}
			q.files = files
			ranker = quickopen.NewRanker(files)
			if q.open == f {
				f.listed(true)
			}
		})
	})
}

// command is one action of the palette: its menu path and shortcut.
type command struct {
	label, shortcut string
	run             func()
}

// showPalette opens the command palette (Ctrl+Shift+P): every action of
// the main menu by name, fuzzy, with its shortcut. It must be called on
// the main goroutine.
func (q *quickOpenUI) showPalette() {
	w := q.w
	cmds := menuCommands(w.win.MainMenu())
	labels := make([]string, len(cmds))
	for i, c := range cmds {
		labels[i] = c.label
	}
	f := q.newFinder("Run a command by name")
	f.rank = func(q string) []quickopen.Result { return quickopen.Rank(q, labels, finderLimit) }
	f.detail = func(r quickopen.Result) string { return cmds[r.Index].shortcut }
	f.noMatch = func(q string) string {
		if strings.TrimSpace(q) == "" {
			return ""
		}
		return fmt.Sprintf("No command matches %q.", q)
	}
	f.pick = func(r quickopen.Result, _ string) {
		if r.Index >= 0 {
			cmds[r.Index].run()
		}
	}
	f.show(w.win.Canvas())
}

// newFinder closes the finder on screen, if any, and makes a new one.
func (q *quickOpenUI) newFinder(placeholder string) *finder {
	if q.open != nil {
		q.open.close()
	}
	f := newFinder(q.w.win.Canvas(), placeholder)
	q.open = f
	return f
}

// menuCommands flattens a main menu into commands: "File › Save" for each
// enabled item with an action, submenus included, separators and the
// palette itself left out.
func menuCommands(m *fyne.MainMenu) []command {
	var out []command
	var walk func(prefix string, items []*fyne.MenuItem)
	walk = func(prefix string, items []*fyne.MenuItem) {
		for _, it := range items {
			label := strings.TrimSuffix(it.Label, "…")
			switch {
			case it.IsSeparator || it.Disabled:
			case it.ChildMenu != nil:
				walk(prefix+label+" › ", it.ChildMenu.Items)
			case it.Action != nil && label != paletteLabel:
				out = append(out, command{label: prefix + label, shortcut: shortcutText(it.Shortcut), run: it.Action})
			}
		}
	}
	if m == nil {
		return nil
	}
	for _, menu := range m.Items {
		walk(menu.Label+" › ", menu.Items)
	}
	return out
}

// paletteLabel is the palette's own menu item, which the palette leaves out.
const paletteLabel = "Command Palette"

// shortcutText is how a person reads a shortcut: "Ctrl+Shift+B".
func shortcutText(sc fyne.Shortcut) string {
	ks, ok := sc.(fyne.KeyboardShortcut)
	if !ok || sc == nil {
		return ""
	}
	var parts []string
	mod := ks.Mod()
	for _, m := range []struct {
		bit  fyne.KeyModifier
		name string
	}{
		{fyne.KeyModifierControl, "Ctrl"},
		{fyne.KeyModifierAlt, "Alt"},
		{fyne.KeyModifierShift, "Shift"},
		{fyne.KeyModifierSuper, "Super"},
	} {
		if mod&m.bit != 0 {
			parts = append(parts, m.name)
		}
	}
	return strings.Join(append(parts, string(ks.Key())), "+")
}
