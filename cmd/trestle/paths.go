package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"trestle/app/project"
	"trestle/app/store"
	"trestle/registry"
)

// newLogger logs to stderr: stdout may belong to JSON-RPC.
func newLogger() *log.Logger {
	return log.New(os.Stderr, "trestle: ", log.LstdFlags)
}

// configPaths are the per-user locations, all under store.ConfigDir.
type configPaths struct {
	root, registry, store, scratch string
}

func userPaths() (configPaths, error) {
	root, err := store.ConfigDir()
	if err != nil {
		return configPaths{}, err
	}
	return configPaths{
		root:     root,
		registry: filepath.Join(root, "mcp"),
		store:    filepath.Join(root, store.FileName),
		scratch:  filepath.Join(root, "scratch"),
	}, nil
}

// workbenchName is this binary's name where it is installed beside the
// `trestle` front (cmd/trestle/front).
const workbenchName = "trestle-workbench"

// commandPath is the `trestle` a person or an MCP client should run: the
// front beside this binary when it is installed as trestle-workbench, so
// that a client's configuration names the command people know; else this
// binary (built on its own with go build ./cmd/trestle), which runs every
// command itself.
func commandPath() (string, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return "", err
	}
	if ext := filepath.Ext(exe); filepath.Base(exe) == workbenchName+ext { // .exe on Windows
		front := filepath.Join(filepath.Dir(exe), "trestle"+ext)
		if info, err := os.Stat(front); err == nil && info.Mode().IsRegular() {
			return front, nil
		}
	}
	return exe, nil
}

func (c configPaths) reg() *registry.Registry { return registry.New(c.registry) }

// openProjectOrFail opens dir (default: the current folder) for the
// headless modes, printing one line on stderr on failure.
func openProjectOrFail(dir string) (*project.Project, bool) {
	if dir == "" {
		dir = "."
	}
	p, err := project.Open(dir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return nil, false
	}
	return p, true
}
