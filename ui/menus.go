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

// menuUI is the window's main menu and what it opens that belongs to no
// pane: File (Open Folder, Open Recent and its list, the editor items),
// Edit, View, Run, Agents and Help (About), another window, the listener
// switch, the question a quit with unsaved files asks, the first run's
// welcome and the status bar's messages (menu_edit.go, openfolder.go,
// welcome.go). It reaches the window's tabs, panes, status bar and dialogs
// through w; where keys go is keysUI's (keys.go). Main goroutine only,
// except where a method says.
type menuUI struct {
	w *Window
	// recent is what Open Recent lists.
	recent []string
	// openFolderShown is the last Open Folder dialog (openfolder.go).
	openFolderShown *openFolderDialog
}

// installActions installs the actions and builds the main menu and
// shortcuts (New's last step). Main goroutine only.
func (w *Window) installActions(a Actions) {
	w.actions = a
	w.menu.install()
	w.win.SetOnClosed(func() {
		st := w.layout.state()
		w.layout.closed = &st
		w.stopWatching()
		w.Quitting()
		w.review.stopEditTimers()
		w.notices.stop()
	})
	if a.Welcome != "" {
		w.menu.showWelcome(a.Welcome)
	}
	if a.Store != nil {
		w.loading.Go(w.menu.loadRecent)
		w.loading.Go(func() { w.layout.restore(a.Store) })
	}
}

// install builds the main menu and binds the window's shortcuts, once, as
// the actions are installed. Main goroutine only.
func (m *menuUI) install() {
	w, k := m.w, m.w.keys
	m.build(nil)
	k.menuKeys()
	k.shortcut(fyne.KeyO, m.openFolder)
	k.shortcut(fyne.KeyComma, w.settings.show)
	k.shortcut(fyne.KeyP, w.quickOpen.showGoToFile)
	k.bindKey(ctrlKey(fyne.KeyF, true), w.showSearch)
	k.bindKey(ctrlKey(fyne.KeyP, true), w.quickOpen.showPalette)
	for key, fn := range map[fyne.KeyName]func(){
		fyne.KeyB: func() { w.run.byPerson("build") },
		fyne.KeyT: w.run.testAtCursor,
		fyne.KeyV: func() { w.run.byPerson("vet") },
		fyne.KeyX: w.run.stop,
	} {
		k.bindKey(ctrlKey(key, true), fn)
	}
}

// loadRecent reads the recent projects off the main goroutine and rebuilds
// the menu with them.
func (m *menuUI) loadRecent() {
	w := m.w
	dirs, err := w.actions.Store.RecentProjects()
	w.onMain(func() {
		if err != nil {
			w.status.notify(err.Error())
		}
		m.build(dirs)
	})
}

// build sets the window's main menu, with recent in Open Recent, and
// guards it (keys.go). Main goroutine only.
func (m *menuUI) build(recent []string) {
	w, k := m.w, m.w.keys
	m.recent = recent
	openFolder := fyne.NewMenuItem("Open Folder…", m.openFolder)
	openFolder.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	settings := fyne.NewMenuItem("Settings…", w.settings.show)
	settings.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault}
	goToFile := menuItem("Go to File…", ctrlKey(fyne.KeyP, false), w.quickOpen.showGoToFile)
	file := fyne.NewMenu("File", openFolder, m.recentMenu(recent), goToFile, fyne.NewMenuItemSeparator())
	file.Items = append(file.Items, m.fileItems()...)
	file.Items = append(file.Items, fyne.NewMenuItemSeparator(), settings)
	view := fyne.NewMenu("View",
		menuItem(paletteLabel+"…", ctrlKey(fyne.KeyP, true), w.quickOpen.showPalette),
		fyne.NewMenuItemSeparator(),
		menuItem("Find in Files…", ctrlKey(fyne.KeyF, true), w.showSearch),
		fyne.NewMenuItemSeparator())
	for _, p := range w.panes.all {
		view.Items = append(view.Items, fyne.NewMenuItem(p.paneTitle()+" Pane", func() { k.focusPane(p) }))
	}
	view.Items = append(view.Items, fyne.NewMenuItemSeparator())
	view.Items = append(view.Items, k.tabItems()...)
	view.Items = append(view.Items, fyne.NewMenuItemSeparator())
	view.Items = append(view.Items, k.focusItems()...)
	edit := m.editMenu()
	edit.Items = append(edit.Items, w.renamer.menuItems()...)
	edit.Items = append(edit.Items, w.gopls.menuItems()...)
	menu := fyne.NewMainMenu(file, edit, view, m.runMenu(), m.agentsMenu(), fyne.NewMenu("Help",
		fyne.NewMenuItem("About Trestle", m.showAbout)))
	view.Items = append(view.Items, fyne.NewMenuItemSeparator(), k.openMenuItems(menu.Items))
	k.guardMenu(menu)
	w.win.SetMainMenu(menu)
}

// runMenu starts the project's tasks; the shortcuts are bound in install.
func (m *menuUI) runMenu() *fyne.Menu {
	w := m.w
	item := func(label string, key fyne.KeyName, fn func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, fn)
		it.Shortcut = &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
		return it
	}
	return fyne.NewMenu("Run",
		item("Build", fyne.KeyB, func() { w.run.byPerson("build") }),
		item("Test at Cursor", fyne.KeyT, w.run.testAtCursor),
		fyne.NewMenuItem("Test All", func() { w.run.byPerson("test") }),
		item("Vet", fyne.KeyV, func() { w.run.byPerson("vet") }),
		fyne.NewMenuItemSeparator(),
		item("Stop", fyne.KeyX, w.run.stop),
		fyne.NewMenuItem("Stop Evaluation", w.evalUI.stop),
		fyne.NewMenuItem("Restart Evaluator", w.evalUI.restart),
		fyne.NewMenuItem("Replay Lost Evaluator State", w.evalUI.replayLost),
		fyne.NewMenuItem("Evaluator Packages (Native or Interpreted)", w.evalUI.showPackages))
}

// recentMenu is Open Recent: the recent projects but this one.
func (m *menuUI) recentMenu(recent []string) *fyne.MenuItem {
	w := m.w
	item := fyne.NewMenuItem("Open Recent", nil)
	for _, dir := range recent {
		if dir == w.project.Root {
			continue
		}
		item.ChildMenu = appendItem(item.ChildMenu, dir, func() { m.openWindow(dir) })
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

// agentsMenu copies the attach configuration, switches the listener and
// shows the agents' calls.
func (m *menuUI) agentsMenu() *fyne.Menu {
	w := m.w
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
		m.applyListener()
		w.settings.save()
	}
	return fyne.NewMenu("Agents", copyCfg, listener,
		fyne.NewMenuItem("Show Agent Calls", func() { w.panes.show(w.panes.agents) }))
}

// applyListener turns the MCP listener on or off as the settings say.
func (m *menuUI) applyListener() {
	w := m.w
	if w.actions.SetListener != nil {
		w.actions.SetListener(w.settings.Listener)
	}
}

// ErrProjectOpen is what Actions.OpenWindow wraps when another live
// window has the folder open already: the window says so and opens none.
var ErrProjectOpen = errors.New("a project is open in one window only: switch to that window")

// ErrProjectRaised is what Actions.OpenWindow wraps when another live
// window had the folder open and came to the front instead: the window
// says so in its status bar (a notice, not a dialog) and opens none.
var ErrProjectRaised = errors.New("the window that has it open came to the front")

// openWindow opens dir in another window, or says why not.
func (m *menuUI) openWindow(dir string) {
	w := m.w
	if w.actions.OpenWindow == nil {
		return
	}
	if filepath.Clean(dir) == filepath.Clean(w.project.Root) {
		w.status.notify(filepath.Base(dir) + " is open in this window")
		return
	}
	err := w.actions.OpenWindow(dir)
	if errors.Is(err, ErrProjectRaised) {
		w.status.notify(err.Error())
		return
	}
	if errors.Is(err, ErrProjectOpen) {
		w.dialogs.showInfo("Already open", err.Error())
		return
	}
	if err != nil {
		w.dialogs.showError(fmt.Errorf("open %s: %w", dir, err))
		return
	}
	m.build(withFirst(dir, m.recent)) // Open Recent has it at once, before the store is read again
	w.status.notify("Opening " + filepath.Base(dir) + " in a new window…")
}

// showAbout is Help ▸ About Trestle.
func (m *menuUI) showAbout() {
	w := m.w
	msg := widget.NewLabel(fmt.Sprintf("Trestle %s\nA Go workbench that coding agents attach to over MCP.\n\nProject: %s",
		w.actions.Version, w.project.Root))
	w.dialogs.show(dialog.NewCustom("About Trestle", "Close", msg, w.win))
}
