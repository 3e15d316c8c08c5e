package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
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
	if twins := registry.Twins(entries, entry); len(twins) > 0 {
		others := make([]string, len(twins))
		for i, e := range twins {
			others[i] = registry.Describe(e)
		}
		fmt.Fprintf(os.Stderr, "trestle: %d Trestle windows are open on %s; attaching to the one started last, %s (also open: %s)\n",
			len(twins)+1, entry.Dir, registry.Describe(entry), strings.Join(others, "; "))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	addr := "127.0.0.1:" + strconv.Itoa(entry.Port)
	err = mcpbridge.Attach(ctx, addr, entry.Token, os.Stdin, out)
	var full *mcpbridge.FullError
	var refused *registry.RefusedError
	switch {
	case errors.As(err, &full):
		fmt.Fprintf(os.Stderr, "trestle: refused: %d agents attached to the window for %s; detach one\n", full.Attached, entry.Dir)
		return 1
	case errors.As(err, &refused):
		fmt.Fprintf(os.Stderr, "trestle: the window for %s (pid %d) %s\n", entry.Dir, entry.PID, refused.Message)
		return 1
	case errors.Is(err, registry.ErrNotTrestle):
		fmt.Fprintf(os.Stderr, "trestle: not attaching to port %d for %s (pid %d): %v; neither the token nor the agent's messages were sent to it; reopen the window\n",
			entry.Port, entry.Dir, entry.PID, err)
		return 1
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
