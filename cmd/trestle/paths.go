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
		store:    filepath.Join(root, "state.db"),
		scratch:  filepath.Join(root, "scratch"),
	}, nil
}

// storePath is the store's file under the user config dir.
func storePath() (string, error) {
	paths, err := userPaths()
	return paths.store, err
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
