package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"trestle/app/errdefs"
	"trestle/app/permission"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/assets"
	"trestle/mcpbridge/supervise"
	"trestle/registry"
	"trestle/ui"
)

// appID keeps Fyne's preferences in one folder across runs.
const appID = "io.trestle.workbench"

// signalQuitGrace is how long after SIGINT or SIGTERM the window waits for
// Fyne's own quit before it quits the app itself.
const signalQuitGrace = 3 * time.Second

// runWindow opens the window on dir (default: the last project, else the
// scratch project), starts the loopback listener and registers it.
// trustFlag (--trust) trusts the project for this run.
func runWindow(dir, policyFlag string, trustFlag bool) int {
	if msg := noDisplay(); msg != "" {
		os.Stderr.WriteString(msg + "\n")
		return 1
	}
	logger := newLogger()
	paths, err := userPaths()
	if err != nil {
		logger.Print(err)
		return 1
	}
	if dir != "" && raisedOpen(paths.reg(), dir, logger) {
		return 0
	}
	// Signals first: their first Notify waits for a thread of the runtime
	// to be scheduled, which took up to 20 ms once the fonts were loading
	// on both cores.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store := openStore(paths, logger)
	project, first, err := chooseProject(dir, paths, store, logger)
	if err != nil {
		logger.Print(err)
		return 1
	}
	settings, policy := loadSettings(store, project, logger)
	if policyFlag != "" {
		policy = policyFlag // for this run only; the stored setting stays
	}
	a := fyneapp.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	a.Settings().SetTheme(ui.NewTheme(settings))
	fonts := ui.LoadFonts() // beside the services and the store: New waits for them

	// The window's Agents menu turns the listener that serves it on and
	// off: both are made with this switch, the listener after the window.
	listenerSwitch := supervise.NewSwitch()
	// The gate asks the person through the window, which is made with the
	// services: it is handed the window's dialog once the window exists.
	services := newServices(project, store, policy, nil, loadTrust(project, store, trustFlag, logger))
	defer services.Eval.Close()
	defer services.LSP.Close()
	recovered := startChangeSets(services.ChangeSets, logger) // before anything reads the files
	actions := ui.Actions{
		Version: version, Store: store, OpenWindow: openWindowFor(paths.reg()), AttachConfig: attachConfig,
		SetListener: listenerSwitch.Set,
	}
	if first {
		actions.Welcome = attachCommand()
	}

	// The listener starts while ui.New builds the window, on the other
	// core once the fonts are loaded there (the main goroutine, starting
	// GLFW, then shares the two cores with one other goroutine, not two:
	// the first UI answer came sooner, 1.22× the minimal window against
	// 1.31× in ten alternating runs): an agent attaching now is through its
	// greeting and initialize when the window can answer, and its first
	// call is queued on the main goroutine before the loop's first frame
	// (see lateWindow).
	late := newLateWindow()
	services.Gate.SetAsk(late.Ask) // before the listener starts: no agent can ask sooner
	mcp := newWindowListener(ctx, project, late, services, paths.reg(), listenerSwitch, logger)
	listening := make(chan struct{})
	defer func() { <-listening; mcp.Stop() }()
	go func() {
		defer close(listening)
		if settings.Listener {
			<-fonts
			mcp.Start()
		}
	}()
	win := ui.New(a, project, ui.Options{
		Settings: settings, Policy: policy, Services: services, GoplsInstall: goplsBin(), Actions: actions,
		AgentMCP: stagedMCP, Fonts: fonts,
	})
	late.set(win)
	if store != nil && store.Recovered() != "" {
		win.Notify("Trestle's store was damaged and was moved to " + store.Recovered() + "; settings start over.")
	}
	for _, r := range recovered {
		win.Notify("Change set " + r.ID + ": " + r.What + ".")
	}
	if err := win.Watch(ctx); err != nil {
		win.Notify("the file tree does not follow changes on disk: " + err.Error())
	}
	var quit sync.Mutex
	ran := false // Run has returned: Fyne is gone, nothing may call it
	context.AfterFunc(ctx, func() {
		win.Quitting() // now: Fyne quits on the same signal without running queued functions
		// Likewise the evaluator: its builds' progress reaches the status bar
		// through fyne.Do, which must not run once Fyne has quit.
		services.Eval.Close()
		// Fyne's GLFW driver quits on SIGINT and SIGTERM by itself, leaving
		// the windows as they are. app.Quit would close them first, and GLFW
		// can then hand a queued mouse move to a closing window, whose nil
		// view crashes in SetInputMode (seen in TestWindowSIGTERMRemovesEntry
		// on a loaded machine). So quit here only if the driver has not.
		time.AfterFunc(signalQuitGrace, func() {
			quit.Lock()
			defer quit.Unlock()
			if !ran {
				fyne.Do(a.Quit)
			}
		})
	})
	// New has shown the window (blank while it built the widgets), so the
	// app only runs: ShowAndRun would draw the content's first frame before
	// the loop starts, whereas Fyne's loop draws it at its first tick and
	// may answer a call queued meanwhile before it. A signal that came
	// while the window was made (an agent may have attached by then) was
	// not Fyne's to hear, which starts listening in Run: then the window
	// quits now rather than after signalQuitGrace.
	if ctx.Err() == nil {
		a.Run()
	}
	quit.Lock()
	ran = true
	quit.Unlock()
	if err := win.SaveLayout(); err != nil {
		logger.Print(err)
	}
	return 0
}

// openStore opens the store, or returns nil (and says so) when it cannot:
// the window still works, it only forgets.
func openStore(paths configPaths, logger *log.Logger) *store.Store {
	db, err := store.Open(paths.store)
	if err != nil {
		logger.Printf("%v; settings and recent projects are not remembered this run", err)
		return nil
	}
	if aside := db.Recovered(); aside != "" {
		logger.Printf("the store %s was damaged; it was moved to %s and a new one started (settings and change sets start over)", db.Path(), aside)
	}
	return db
}

// chooseProject opens dir, else the last project from the store, else the
// scratch project (written on first run; first reports that), and records
// it as recent. A scratch project written now is trusted.
func chooseProject(dir string, paths configPaths, db *store.Store, logger *log.Logger) (proj *project.Project, first bool, err error) {
	created := false // the scratch project was written just now
	if dir == "" && db != nil {
		if last, err := db.LastProject(); err == nil {
			dir = last
		} else if !errors.Is(err, errdefs.ErrNotFound) {
			logger.Print(err)
		}
	}
	if dir == "" {
		_, statErr := os.Stat(paths.scratch)
		if err := project.WriteScratch(assets.Scratch(), paths.scratch); err != nil {
			return nil, false, err
		}
		dir, first = paths.scratch, true
		created = errors.Is(statErr, os.ErrNotExist)
	}
	proj, err = project.Open(dir)
	if err != nil {
		return nil, false, err
	}
	if db != nil {
		if err := db.TouchProject(proj.Root); err != nil {
			logger.Print(err)
		}
	}
	if created && db != nil { // Trestle wrote every file of it: trusted, until the person revokes it
		if err := db.SetProjectTrusted(proj.Root, true); err != nil {
			logger.Print(err)
		}
	}
	return proj, first, nil
}

// loadSettings reads the settings and this project's agent policy,
// falling back to the defaults.
func loadSettings(db *store.Store, project *project.Project, logger *log.Logger) (store.Settings, string) {
	if db == nil {
		return store.DefaultSettings(), permission.PolicyAsk
	}
	settings, err := db.Settings()
	if err != nil {
		logger.Print(err)
	}
	state, err := db.ProjectState(project.Root)
	if err != nil {
		logger.Print(err)
	}
	if state.Policy == "" {
		state.Policy = permission.PolicyAsk
	}
	return settings, state.Policy
}

// openWindowFor is openWindow, unless a live window of reg already has dir
// open: then it starts nothing and asks that window to come to the front
// (over its listener, with its token: registry.Focus). It says which
// window has it, as an error wrapping ui.ErrProjectRaised when the window
// came to the front, else ui.ErrProjectOpen with why not. A window whose
// listener is off has no entry. It runs on the window's main goroutine, so
// the request is bounded (registry.FocusTimeout).
func openWindowFor(reg *registry.Registry) func(dir string) error {
	return func(dir string) error {
		e, ok := openIn(reg, dir)
		if !ok {
			return openWindow(dir)
		}
		if err := registry.Focus(e, registry.FocusTimeout); err != nil {
			if cause := errors.Unwrap(err); cause != nil {
				err = cause // Focus's own words name the window again
			}
			return fmt.Errorf("%s is already open in Trestle window %d (started %s), which did not come to the front (%v): %w",
				dir, e.PID, e.Started.Local().Format("15:04"), err, ui.ErrProjectOpen)
		}
		return projectRaised(fmt.Sprintf("%s is open in Trestle window %d: brought it to the front", filepath.Base(dir), e.PID))
	}
}

// raisedOpen is `trestle DIR` when a live window of reg has dir open: it
// asks that window to come to the front and says so, reporting true. When
// none has it, or the window did not come (it says why), it reports false
// and a window opens on dir as before.
func raisedOpen(reg *registry.Registry, dir string, logger *log.Logger) bool {
	e, ok := openIn(reg, dir)
	if !ok {
		return false
	}
	if err := registry.Focus(e, registry.FocusTimeout); err != nil {
		logger.Printf("%s is open in Trestle window %d, which did not come to the front (%v); opening another window on it", dir, e.PID, err)
		return false
	}
	logger.Printf("%s is open in Trestle window %d: brought it to the front", dir, e.PID)
	return true
}

// projectRaised is openWindowFor's answer when the window that has the
// project open came to the front: a notice for the person, which wraps
// ui.ErrProjectRaised without adding its words.
type projectRaised string

func (p projectRaised) Error() string { return string(p) }

func (p projectRaised) Unwrap() error { return ui.ErrProjectRaised }

// openIn returns the live entry of reg whose project is dir, symlinks
// resolved.
func openIn(reg *registry.Registry, dir string) (registry.Entry, bool) {
	entries, err := reg.Reap()
	if err != nil {
		return registry.Entry{}, false
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	for _, e := range entries {
		if filepath.Clean(e.Dir) == filepath.Clean(dir) {
			return e, true
		}
	}
	return registry.Entry{}, false
}

// openWindow starts another Trestle window on dir: one window per project.
func openWindow(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it; the new window lives on its own
	return nil
}

// attachConfig is the Claude Code configuration for this binary.
// attachCommand is the command that attaches Claude Code to this window.
func attachCommand() string {
	exe, err := commandPath()
	if err != nil {
		return "claude mcp add trestle -- trestle --mcp-attach"
	}
	return "claude mcp add trestle -- " + strconv.Quote(exe) + " --mcp-attach"
}

func attachConfig() string {
	exe, err := commandPath()
	if err != nil {
		return "trestle --mcp-attach"
	}
	return clientConfig("claude", exe)
}
