package ui

import (
	"errors"
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"trestle/app/store"
)

// Actions are what the window asks of the program around it.
type Actions struct {
	Version string
	// Store keeps settings and per-project state; nil remembers nothing.
	Store *store.Store
	// OpenWindow opens another Trestle window on dir (one window per project).
	OpenWindow func(dir string) error
	// AttachConfig is the MCP configuration that attaches an agent.
	AttachConfig func() string
	// SetListener turns the MCP listener on or off. Called on the main
	// goroutine; it must not block.
	SetListener func(on bool)
	// Welcome, when set, is the command that attaches Claude Code: the
	// window shows the first run's welcome with it.
	Welcome string
}

// installActions installs the actions and builds the main menu and
// shortcuts (New's last step). Main goroutine only.
func (w *Window) installActions(a Actions) {
	w.actions = a
	w.buildMenu(nil)
	w.menuKeys()
	w.shortcut(fyne.KeyO, w.openFolder)
	w.shortcut(fyne.KeyComma, w.showSettings)
	w.shortcut(fyne.KeyP, w.showGoToFile)
	w.bindKey(ctrlKey(fyne.KeyF, true), w.showSearch)
	w.bindKey(ctrlKey(fyne.KeyP, true), w.showPalette)
	for key, fn := range map[fyne.KeyName]func(){
		fyne.KeyB: func() { w.run.byPerson("build") },
		fyne.KeyT: w.testAtCursor,
		fyne.KeyV: func() { w.run.byPerson("vet") },
		fyne.KeyX: w.run.stop,
	} {
		w.bindKey(ctrlKey(key, true), fn)
	}
	w.win.SetOnClosed(func() {
		st := w.layoutState()
		w.closedLayout = &st
		w.stopWatching()
		w.Quitting()
		w.stopEditTimers()
		w.notices.stop()
	})
	if a.Welcome != "" {
		w.showWelcome(a.Welcome)
	}
	if a.Store != nil {
		w.loading.Go(w.loadRecent)
		w.loading.Go(func() { w.restoreLayout(a.Store) })
	}
}

// shortcut binds Ctrl (Cmd on macOS) + key to fn (bindKey).
func (w *Window) shortcut(key fyne.KeyName, fn func()) {
	w.bindKey(ctrlKey(key, false), fn)
}

// loadRecent reads the recent projects off the main goroutine and rebuilds
// the menu with them.
func (w *Window) loadRecent() {
	dirs, err := w.actions.Store.RecentProjects()
	w.onMain(func() {
		if err != nil {
			w.status.notify(err.Error())
		}
		w.buildMenu(dirs)
	})
}

func (w *Window) buildMenu(recent []string) {
	w.recent = recent
	openFolder := fyne.NewMenuItem("Open Folder…", w.openFolder)
	openFolder.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	settings := fyne.NewMenuItem("Settings…", w.showSettings)
	settings.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault}
	goToFile := menuItem("Go to File…", ctrlKey(fyne.KeyP, false), w.showGoToFile)
	file := fyne.NewMenu("File", openFolder, w.recentMenu(recent), goToFile, fyne.NewMenuItemSeparator())
	file.Items = append(file.Items, w.fileItems()...)
	file.Items = append(file.Items, fyne.NewMenuItemSeparator(), settings)
	view := fyne.NewMenu("View",
		menuItem(paletteLabel+"…", ctrlKey(fyne.KeyP, true), w.showPalette),
		fyne.NewMenuItemSeparator(),
		menuItem("Find in Files…", ctrlKey(fyne.KeyF, true), w.showSearch),
		fyne.NewMenuItemSeparator())
	for _, p := range w.panes.all {
		view.Items = append(view.Items, fyne.NewMenuItem(p.paneTitle()+" Pane", func() { w.focusPane(p) }))
	}
	view.Items = append(view.Items, fyne.NewMenuItemSeparator())
	view.Items = append(view.Items, w.tabItems()...)
	view.Items = append(view.Items, fyne.NewMenuItemSeparator())
	view.Items = append(view.Items, w.focusItems()...)
	edit := w.editMenu()
	edit.Items = append(edit.Items, w.renamer.menuItems()...)
	edit.Items = append(edit.Items, w.gopls.menuItems()...)
	menu := fyne.NewMainMenu(file, edit, view, w.runMenu(), w.agentsMenu(), fyne.NewMenu("Help",
		fyne.NewMenuItem("About Trestle", w.showAbout)))
	view.Items = append(view.Items, fyne.NewMenuItemSeparator(), w.openMenuItems(menu.Items))
	w.guardMenu(menu)
	w.win.SetMainMenu(menu)
}

// runMenu starts the project's tasks; the shortcuts are bound in installActions.
func (w *Window) runMenu() *fyne.Menu {
	item := func(label string, key fyne.KeyName, fn func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, fn)
		it.Shortcut = &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
		return it
	}
	return fyne.NewMenu("Run",
		item("Build", fyne.KeyB, func() { w.run.byPerson("build") }),
		item("Test at Cursor", fyne.KeyT, w.testAtCursor),
		fyne.NewMenuItem("Test All", func() { w.run.byPerson("test") }),
		item("Vet", fyne.KeyV, func() { w.run.byPerson("vet") }),
		fyne.NewMenuItemSeparator(),
		item("Stop", fyne.KeyX, w.run.stop),
		fyne.NewMenuItem("Stop Evaluation", w.evalUI.stop),
		fyne.NewMenuItem("Restart Evaluator", w.evalUI.restart),
		fyne.NewMenuItem("Replay Lost Evaluator State", w.evalUI.replayLost),
		fyne.NewMenuItem("Evaluator Packages (Native or Interpreted)", w.evalUI.showPackages))
}

func (w *Window) recentMenu(recent []string) *fyne.MenuItem {
	item := fyne.NewMenuItem("Open Recent", nil)
	for _, dir := range recent {
		if dir == w.project.Root {
			continue
		}
		item.ChildMenu = appendItem(item.ChildMenu, dir, func() { w.openWindow(dir) })
	}
	if item.ChildMenu == nil {
		item.Disabled = true
	}
	return item
}

// withFirst is list with dir first and nowhere else.
func withFirst(dir string, list []string) []string {
	out := []string{dir}
	for _, d := range list {
		if d != dir {
			out = append(out, d)
		}
	}
	return out
}

func appendItem(m *fyne.Menu, label string, fn func()) *fyne.Menu {
	if m == nil {
		m = fyne.NewMenu("")
	}
	m.Items = append(m.Items, fyne.NewMenuItem(label, fn))
	return m
}

func (w *Window) agentsMenu() *fyne.Menu {
	copyCfg := fyne.NewMenuItem("Copy Attach Configuration", func() {
		if w.actions.AttachConfig == nil {
			return
		}
		fyne.CurrentApp().Clipboard().SetContent(w.actions.AttachConfig())
		w.status.notify("Copied the MCP configuration: paste it into your agent's settings.")
	})
	listener := fyne.NewMenuItem("Listen for Agents", nil)
	listener.Checked = w.settings.Listener
	listener.Action = func() {
		w.settings.Listener = !w.settings.Listener
		listener.Checked = w.settings.Listener
		w.applyListener()
		w.saveSettings(w.settings)
	}
	return fyne.NewMenu("Agents", copyCfg, listener,
		fyne.NewMenuItem("Show Agent Calls", func() { w.panes.show(w.panes.agents) }))
}

func (w *Window) applyListener() {
	if w.actions.SetListener != nil {
		w.actions.SetListener(w.settings.Listener)
	}
}

// ErrProjectOpen is what Actions.OpenWindow wraps when another live
// window has the folder open already: the window says so and opens none.
var ErrProjectOpen = errors.New("a project is open in one window only: switch to that window")

func (w *Window) openWindow(dir string) {
	if w.actions.OpenWindow == nil {
		return
	}
	if filepath.Clean(dir) == filepath.Clean(w.project.Root) {
		w.status.notify(filepath.Base(dir) + " is open in this window")
		return
	}
	err := w.actions.OpenWindow(dir)
	if errors.Is(err, ErrProjectOpen) {
		w.dialogs.showInfo("Already open", err.Error())
		return
	}
	if err != nil {
		w.dialogs.showError(fmt.Errorf("open %s: %w", dir, err))
		return
	}
	w.buildMenu(withFirst(dir, w.recent)) // Open Recent has it at once, before the store is read again
	w.status.notify("Opening " + filepath.Base(dir) + " in a new window…")
}

func (w *Window) showAbout() {
	msg := widget.NewLabel(fmt.Sprintf("Trestle %s\nA Go workbench that coding agents attach to over MCP.\n\nProject: %s",
		w.actions.Version, w.project.Root))
	w.dialogs.show(dialog.NewCustom("About Trestle", "Close", msg, w.win))
}
