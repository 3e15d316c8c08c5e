package ui

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"trestle/app/changeset"
	"trestle/app/permission"
	"trestle/app/project"
	"trestle/app/sandbox"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/watch"
	"trestle/app/workbench"
)

// Window is Trestle's main window on one project: the file tree on the
// left, the open files on the right, the status bar below. Its exported
// methods are safe for concurrent use from any goroutine except where
// their comments say otherwise; the window tools reach it through Tabs,
// Open and Buffer, each one bounded main-thread call.
type Window struct {
	project *project.Project
	win     fyne.Window
	files   *fileTree
	tree    *projectTree
	tabs    *tabArea
	status  *statusBar
	notices *noticeCenter // agents' messages: the bell's list and the toasts (notices.go)
	panes   *panes
	// actions are New's Options (menus.go); settings holds its Settings and
	// Policy (settings.go).
	actions  Actions
	settings *settingsUI
	// services are the evaluator and tasks (services.go); config is
	// .trestle.json's part, with the active selection (config.go).
	services services.Services
	config   *configUI
	// evalUI is the evaluator's part (evaluate.go); renamer F2's (lsp_rename.go).
	evalUI  *evalUI
	renamer *renamer
	goTo    *gotoUI // definitions, references, outline (lsp_places.go)
	git     *gitUI  // the Changes pane, the tree's tints, the gutter (gitgutter.go)
	trust   *trustUI
	run     *runUI         // runs: the person's, and every run's output (tasks.go)
	layout  *layoutUI      // the splits and the remembered layout (layout.go)
	treeSel string         // the file selected in the tree, or ""
	loading sync.WaitGroup // file reads started by OpenOnMain

	watcher *watch.Watcher // set by Watch, closed by stopWatching
	// onFilesChanged hears of every batch of changes on disk, after the tree
	// shows them; called on the main goroutine when set.
	onFilesChanged func([]watch.Event)
	// review is the change-set review: the Change Sets pane, the proposals
	// shown in file tabs, the stale check of edited buffers (review_host.go).
	review *reviewUI
	// quickOpen is Go to File and the command palette (quickopen.go).
	quickOpen *quickOpenUI
	// gopls links the editors to the project's language server (lsp.go).
	gopls *goplsUI
	// nav is where Alt+Left and Alt+Right go (nav.go).
	nav *navUI
	// menu is the main menu and what it opens (menus.go); keys is where
	// keys go: shortcuts, focus, the menu bar (keys.go).
	menu *menuUI
	keys *keysUI
	// main is the one way onto the main goroutine (mainthread.go); Quitting
	// closes it: nothing more may reach Fyne from another goroutine.
	main *mainThread
	// clientsText is the agents label's text that SetClients has queued
	// for the main goroutine and not yet shown, or nil.
	clientsText atomic.Pointer[string]
	// asks shows agents' questions, one at a time (permission.go).
	asks *askUI
	// dialogs are the dialogs shown, which Escape closes (escape.go).
	dialogs *dialogStack
}

// Options are what a Window is made with, all given to New at once.
type Options struct {
	// Settings are the person's stored settings; the zero value means
	// store.DefaultSettings().
	Settings store.Settings
	// Policy is this project's agent permission policy; "" means
	// permission.PolicyAsk.
	Policy string
	// Services are the project's gopls, evaluators, tasks, change sets,
	// permission gate and .trestle.json (any may be nil).
	Services services.Services
	// GoplsInstall is the per-user folder "Install gopls" installs into
	// when gopls is missing; "" offers no install.
	GoplsInstall string
	// Actions are what the window asks of the program around it: the
	// store, other windows, the listener switch, the first run's welcome.
	Actions Actions
	// AgentMCP are the MCP servers a hosted agent gets in session/new for
	// its staging copy (Trestle itself, headless on the copy); nil gives none.
	AgentMCP func(*sandbox.Stage) []acpsdk.McpServer
	// Fonts, when set, is closed once LoadFonts has loaded the fonts; New
	// shows the window blank, then waits for it before it measures any
	// text (see showBlank).
	Fonts <-chan struct{}
}

// New builds the window for p, configured by o. It must be called on the
// main goroutine, before the app runs; show it with Window().ShowAndRun()
// (after Watch, to follow the disk), or, when o.Fonts is set (New has
// shown it), run the app.
func New(a fyne.App, p *project.Project, o Options) *Window {
	if o.Settings == (store.Settings{}) {
		o.Settings = store.DefaultSettings()
	}
	if o.Policy == "" {
		o.Policy = permission.PolicyAsk
	}
	// Fyne's window first: making the first one starts the driver (GLFW),
	// which measures no text and so runs while the fonts still load.
	win := a.NewWindow(windowTitle(p))
	if o.Fonts != nil {
		showBlank(win) // GLFW's window and GL context, while the fonts load
		<-o.Fonts      // loaded beside the caller's start (LoadFonts)
	}
	w := newWindowIn(win, p, o.Services.ChangeSets) // 1. the widgets: tree, tabs, panes, status bar
	w.settings.use(o.Settings, o.Policy)            // 2. tab width, hidden files, the agent policy
	w.gopls.installDir = o.GoplsInstall             // 3. where a missing gopls installs (read by 4)
	w.connectServices(o.Services)                   // 4. gopls, the Eval pane, the Run menu, .trestle.json
	w.review.connect(o.Services.ChangeSets)         // 5. the Change Sets pane and its poll of the store
	w.installActions(o.Actions)                     // 6. menus, shortcuts, close, recent projects, layout, welcome
	w.panes.agent.connect(o.AgentMCP)               // 7. what a hosted agent gets; the stored sessions
	return w
}

// showBlank shows win empty, at the window's first size: Fyne makes the
// window and its GL context (GLFW's window, the painter's shaders, about a
// third of the start's CPU) when it is first shown, and none of that
// measures text, so done now it runs while the fonts load on other
// goroutines; newWindowIn then fills it. The empty window is cleared to
// the theme's background. Main goroutine only.
func showBlank(win fyne.Window) {
	win.SetContent(container.NewWithoutLayout())
	win.Resize(fyne.NewSize(windowWidth, windowHeight))
	win.Show()
}

// windowWidth and windowHeight are the window's size until the project's
// remembered layout is restored.
const windowWidth, windowHeight = 1100, 720

// newWindow builds the widgets of the window for p, with the default
// settings and nothing connected: what a test starts from when it tries
// one of New's steps alone. Main goroutine only.
func newWindow(a fyne.App, p *project.Project) *Window {
	return newWindowIn(a.NewWindow(windowTitle(p)), p, nil)
}

// windowTitle is the title of p's window.
func windowTitle(p *project.Project) string { return "Trestle — " + filepath.Base(p.Root) }

// newWindowIn is New's first step: newWindow in win, with the Change Sets
// pane for changes (none when nil) among the bottom panes, so that the tab
// bar is laid out once, with every tab (step 5 connects the pane).
func newWindowIn(win fyne.Window, p *project.Project, changes *changeset.Manager) *Window {
	notices := newNoticeCenter(win, nil)
	w := &Window{
		main:    &mainThread{},
		dialogs: newDialogStack(win),
		project: p,
		win:     win,
		notices: notices,
		status:  newStatusBar(p.Root, notices.bell),
		tabs:    newTabArea(),
	}
	w.evalUI, w.renamer, w.goTo, w.git = &evalUI{w: w}, &renamer{w: w}, &gotoUI{w: w}, &gitUI{w: w}
	w.trust, w.run = &trustUI{w: w}, newRunUI(w)
	w.asks = &askUI{w: w, turn: make(chan struct{}, 1)}
	w.config, w.layout, w.quickOpen = &configUI{w: w}, &layoutUI{w: w}, &quickOpenUI{w: w}
	w.nav = &navUI{w: w}
	w.settings = &settingsUI{w: w, Settings: store.DefaultSettings(), policy: permission.PolicyAsk}
	w.menu, w.keys = &menuUI{w: w}, &keysUI{w: w, bar: driverMenuBar{win.Canvas()}}
	w.gopls = &goplsUI{w: w}
	w.review = &reviewUI{w: w, changes: changes}
	notices.dialogs = w.dialogs
	w.status.main = w.main
	w.tabs.main, w.tabs.dialogs, w.tabs.async = w.main, w.dialogs, w.loading.Go
	for _, l := range w.status.labels() {
		l.later = w.main.after
	}
	w.status.selection.later = w.main.after
	notices.review = w.reviewChangeSet
	notices.after = w.main.afterStop
	w.tabs.onChange = w.syncTree
	w.tabs.onCaret = func(line, col int) { w.status.setCursor(line, col) }
	w.tabs.onEval = w.evalUI.byPerson
	w.onFilesChanged = w.tabs.filesChangedOnDisk
	w.tabs.attach(w.win, p, func(msg string) { w.status.notify(msg) })
	w.win.SetCloseIntercept(w.menu.confirmQuit)
	w.menu.editorShortcuts()
	w.nav.shortcuts()
	w.files = newFileTree(p, func(err error) { w.status.notify(err.Error()) })
	w.files.win, w.files.open, w.files.dialogs = w.win, w.OpenOnMain, w.dialogs
	w.files.childUIDs("") // the root, before the window shows; later folders are read off the main goroutine
	w.files.async = func(fn func()) { w.files.io.Go(fn) }
	w.files.do = w.onMain
	w.tree = w.files.widget()
	w.tree.OnSelected = w.treeSelected
	w.tree.OnUnselected = func(string) { w.treeSel = "" }
	w.status.message.onTap = w.menu.showMessages
	newPanes(w) // paneParts, in panes.go
	w.git.attachGutter()
	w.layout.paneSplit = container.NewVSplit(w.tabs.content, w.panes.tabs)
	w.layout.paneSplit.Offset = 0.72
	w.layout.treeSplit = container.NewHSplit(w.tree, w.layout.paneSplit)
	w.layout.treeSplit.Offset = 0.25
	w.win.SetContent(container.NewBorder(nil, w.status.bar, nil, nil, container.NewStack(w.layout.treeSplit, w.notices.layer, w.status.tips)))
	w.win.Resize(fyne.NewSize(windowWidth, windowHeight))
	return w
}

// Quitting drops, from now on, everything that would still reach Fyne
// from another goroutine: the window is closing. Once Fyne's loop has
// stopped (a signal quits it at once, without OnClosed), fyne.Do runs its
// function on the caller's goroutine, so a watcher's batch or a timer
// arriving then would touch widgets off the main goroutine. The window's
// OnClosed calls it; a quit on a signal must call it first. Safe for
// concurrent use from any goroutine.
func (w *Window) Quitting() {
	w.main.close()
	w.gopls.stop()
	w.panes.agent.stopAndWait()
}

// onMain runs fn on the main goroutine, unless the window is closing
// (Quitting): then fn is dropped, before it is queued or when it would run.
// It is w.main.do, the one way there (mainthread.go). Any goroutine.
func (w *Window) onMain(fn func()) { w.main.do(fn) }

// filesNamed lists the project's files whose base name is base, at most
// two (the Run pane opens a bare file.go:12 when only one file has that
// name). It walks the tree: a person's click, not a hot path.
func (w *Window) filesNamed(base string) []string {
	files, _, err := w.project.ListFiles(context.Background(), "", base, 2)
	if err != nil {
		return nil
	}
	return files
}

// Window returns the Fyne window, to show and run on the main goroutine.
func (w *Window) Window() fyne.Window { return w.win }

// Tabs returns the open tabs in tab order, the active one flagged. Safe
// for concurrent use; busy after DefaultCallBound.
func (w *Window) Tabs(ctx context.Context) ([]workbench.Tab, error) {
	return callValue(ctx, w.main, 0, w.tabs.list)
}

// Open opens path in a tab, or focuses its tab, and when line > 0 scrolls
// to that line and highlights it. path is already confined; it is not
// resolved again. The file is read before the main-thread call. A missing
// file and a folder are errors wrapping errdefs.ErrNotFound and
// errdefs.ErrInvalid. Safe for concurrent use; busy after DefaultCallBound.
func (w *Window) Open(ctx context.Context, path project.Path, line int) error {
	f, err := loadPath(w.project, path)
	if err != nil {
		return err
	}
	return w.main.call(ctx, 0, func() { w.tabs.showForAgent(f, line) })
}

// Buffer returns the text of path's tab as it would be saved (with the
// file's line endings) and open=true, or open=false when path has no tab
// with text; dirty reports unsaved changes.
// Safe for concurrent use; busy after DefaultCallBound.
func (w *Window) Buffer(ctx context.Context, path project.Path) (text string, open, dirty bool, err error) {
	return w.bufferWithin(ctx, path, 0)
}

// bufferWithin is Buffer with the main-thread call's bound (0: the
// agents' DefaultCallBound).
func (w *Window) bufferWithin(ctx context.Context, path project.Path, bound time.Duration) (text string, open, dirty bool, err error) {
	rel := path.Rel()
	b, err := callValue(ctx, w.main, bound, func() buffer { return w.tabs.buffer(rel) })
	if err != nil || !b.open {
		return "", b.open, b.dirty, err
	}
	return b.snap.FileText(), b.open, b.dirty, nil
}

// OpenOnMain opens rel in a tab, reading it on another goroutine first, and
// shows in the status bar why when it cannot. It must be called on the
// main goroutine.
func (w *Window) OpenOnMain(rel string) {
	if w.tabs.focus(rel) {
		return
	}
	w.openAt(rel, 0)
}

// SetListener shows the MCP listener's address, or err when it failed to
// start ("" and nil: off). Safe to call from any goroutine.
func (w *Window) SetListener(addr string, err error) {
	text := mcpText(addr, err)
	w.onMain(func() { w.status.mcp.SetText(text) })
}

// SetClients shows the attached MCP clients and how many connections hold
// a place without having initialized. Safe to call from any goroutine.
func (w *Window) SetClients(clients []workbench.Client, connecting int) {
	// Updates that reach the main goroutine's queue before it runs show
	// the last one only: a client attaching sends two (connecting, then
	// attached), and each lays out the status row again (~15 ms), in the
	// queue ahead of that client's first call when the window is starting.
	text := agentsText(clients, connecting)
	if w.clientsText.Swap(&text) != nil {
		return // an update is queued: it shows this text
	}
	w.onMain(func() {
		if t := w.clientsText.Swap(nil); t != nil {
			w.status.agents.SetText(*t)
		}
	})
}

// Notify shows msg in the status bar for a while. Safe to call from any
// goroutine.
func (w *Window) Notify(msg string) {
	w.onMain(func() { w.status.notify(msg) })
}

// Watch starts watching the project folder until ctx is done or
// stopWatching: the tree follows created and removed files and
// onFilesChanged hears of every change. Folders .gitignore ignores are not
// watched. Problems, such as the system's watch limit, show in the status
// bar. It must be called on the main goroutine, once.
func (w *Window) Watch(ctx context.Context) error {
	wt, err := watch.Start(ctx, w.project.Root, watch.Options{
		SkipDir: func(rel string) bool { return w.files.ignore.Ignored(rel, true) },
		OnBatch: w.filesChanged,
		OnError: func(err error) { w.Notify(err.Error()) },
	})
	if err != nil {
		return err
	}
	w.watcher = wt
	w.git.refresh()
	return nil
}

// filesChanged reads the folders a batch changed, on the watcher's
// goroutine, then shows them and tells onFilesChanged on the main one.
func (w *Window) filesChanged(events []watch.Event) {
	w.review.sawFiles(events)
	w.config.sawFiles(events)
	if a := w.panes.agent; a != nil { // set when the window is made, never after
		a.sawFiles(events)
	}
	if c := w.services.LSP; c != nil { // set before Watch starts, never after
		c.DiskChanged(events)
	}
	reads := w.files.reread(events)
	w.onMain(func() {
		w.files.apply(reads)
		if w.onFilesChanged != nil {
			w.onFilesChanged(events)
		}
		w.panes.filesChanged(events)
	})
}

// stopWatching stops the watcher started by Watch and the change-set
// poll started by connect (review_host.go), and waits for them. It
// must be called on the main goroutine, e.g. as the window closes.
func (w *Window) stopWatching() {
	if w.evalUI.stopBuilds != nil {
		w.evalUI.stopBuilds()
		w.evalUI.stopBuilds = nil
	}
	if w.watcher != nil {
		w.watcher.Close()
		w.watcher = nil
	}
	w.review.stop()
}

// RecordCall lists an agent tool call in the Agents pane. Safe to call
// from any goroutine.
func (w *Window) RecordCall(c workbench.ToolCall) {
	w.onMain(func() { w.panes.agents.add(c) })
}

// openAt opens rel at line, reading it on another goroutine first. It must
// be called on the main goroutine.
func (w *Window) openAt(rel string, line int) {
	w.loading.Go(func() {
		f, err := loadFile(w.project, rel)
		w.onMain(func() {
			if err != nil {
				w.status.notify(err.Error())
				return
			}
			w.tabs.show(f, line)
		})
	})
}

// Stall blocks the main goroutine for d, as soon as it gets to it. It is a
// test hook: end-to-end tests use it to watch a window tool answer busy.
// Safe to call from any goroutine.
func (w *Window) Stall(d time.Duration) {
	w.main.stall(d)
}

// treeSelected opens a tapped file, or opens or closes a tapped folder.
func (w *Window) treeSelected(uid string) {
	if w.files.isBranch(uid) {
		w.tree.ToggleBranch(uid)
		w.tree.Unselect(uid)
		return
	}
	w.treeSel = uid
	w.OpenOnMain(uid)
}

// syncTree selects the active tab's file in the tree, so that tapping
// another file, or this one again after its tab closed, always registers.
func (w *Window) syncTree() {
	active := w.tabs.active()
	switch {
	case active == w.treeSel:
	case active == "":
		w.tree.UnselectAll()
	default:
		w.tree.Select(active)
	}
}
