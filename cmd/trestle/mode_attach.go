package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"trestle/mcpbridge"
	"trestle/registry"
)

// runAttach bridges stdio to the live window for dir (--mcp-attach).
func runAttach(dir string) int {
	out := guardStdout()
	paths, err := userPaths()
	if err != nil {
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return 1
	}
	reg := paths.reg()
	if err := reg.CheckPrivate(); err != nil { // before trusting any entry in it
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return 1
	}
	entries, err := reg.ReapUnanswered(registry.ProbeTimeout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return 1
	}
	cwd, _ := os.Getwd()
	entry, err := registry.Discover(entries, dir, cwd)
	if err != nil {
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	addr := "127.0.0.1:" + strconv.Itoa(entry.Port)
	err = mcpbridge.Attach(ctx, addr, entry.Token, os.Stdin, out)
	switch {
	case errors.Is(err, mcpbridge.ErrWindowGone):
		fmt.Fprintf(os.Stderr, "trestle: the Trestle window for %s (pid %d) went away; reopen it and attach again\n",
			entry.Dir, entry.PID)
		return 1
	case err != nil:
		fmt.Fprintf(os.Stderr, "trestle: attach to the window for %s (pid %d): %v\n", entry.Dir, entry.PID, err)
		return 1
	}
	return 0
}
