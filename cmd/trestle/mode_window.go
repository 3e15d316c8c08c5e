package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"trestle/app"
	"trestle/assets"
	"trestle/mcpbridge"
	"trestle/registry"
	"trestle/ui"
)

// appID keeps Fyne's preferences in one folder across runs.
const appID = "io.trestle.workbench"

// runWindow opens the window on dir (default: the last project, else the
// scratch project), starts the loopback listener and registers it.
func runWindow(dir string) int {
	logger := newLogger()
	paths, err := userPaths()
	if err != nil {
		logger.Print(err)
		return 1
	}
	project, err := chooseProject(dir, paths, logger)
	if err != nil {
		logger.Print(err)
		return 1
	}
	a := fyneapp.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	win := ui.New(a, project)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	closeListener := startListener(ctx, project, win, paths.reg(), logger)
	defer closeListener()
	context.AfterFunc(ctx, func() { fyne.Do(a.Quit) })
	win.Window().ShowAndRun()
	return 0
}

// chooseProject opens dir, else the last project from the store, else the
// scratch project (written on first run), and records it as recent.
func chooseProject(dir string, paths configPaths, logger *log.Logger) (*app.Project, error) {
	store, err := app.OpenStore(paths.store)
	if err != nil {
		logger.Printf("%v; recent projects are not remembered this run", err)
	}
	if dir == "" && store != nil {
		if last, err := store.LastProject(); err == nil {
			dir = last
		} else if !errors.Is(err, app.ErrNotFound) {
			logger.Print(err)
		}
	}
	if dir == "" {
		if err := app.WriteScratch(assets.Scratch(), paths.scratch); err != nil {
			return nil, err
		}
		dir = paths.scratch
	}
	project, err := app.OpenProject(dir)
	if err != nil {
		return nil, err
	}
	if store != nil {
		if err := store.TouchProject(project.Root); err != nil {
			logger.Print(err)
		}
	}
	return project, nil
}

// startListener serves the window's MCP tools on loopback and writes the
// registry entry that --mcp-attach finds. The window keeps working when
// this fails; the status bar says why. The returned func stops it all.
func startListener(ctx context.Context, project *app.Project, win *ui.Window, reg *registry.Registry, logger *log.Logger) func() {
	if _, err := reg.Reap(); err != nil {
		logger.Print(err)
	}
	opts := mcpbridge.Options{Project: project, Window: win, Version: version, Logger: logger, OnCall: win.RecordCall}
	if os.Getenv("TRESTLE_TEST_HOOKS") == "1" {
		opts.Stall = win.Stall
	}
	srv := mcpbridge.NewServer(opts)
	token, err := mcpbridge.NewToken()
	var l *mcpbridge.Listener
	if err == nil {
		l, err = srv.Listen(token)
	}
	if err != nil {
		win.SetListener("", err)
		return func() {}
	}
	l.OnClients = win.SetClients
	go func() {
		if err := l.Serve(ctx); err != nil {
			logger.Print(err)
		}
	}()
	entry := registry.Entry{PID: os.Getpid(), Port: l.Port(), Dir: project.Root, Token: token,
		Started: time.Now(), Version: version}
	if err := reg.Write(entry); err != nil {
		win.SetListener(l.Addr(), fmt.Errorf("agents cannot find this window: %w", err))
	} else {
		win.SetListener(l.Addr(), nil)
	}
	return func() {
		reg.Remove(entry.PID)
		l.Close()
	}
}
