package main

import (
	"bufio"
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

// runAttach bridges stdio to the live window for dir (--mcp-attach). A
// failure to attach is said on stderr and, so that the client shows it
// too, as the JSON-RPC error answering its first request. A signal ends it
// quietly.
func runAttach(dir string) int {
	out := guardStdout()
	in := bufio.NewReaderSize(os.Stdin, 64<<10) // AttachTo reads through it, so a refusal can still answer what the client sent
	fail := func(msg string) int {
		fmt.Fprintf(os.Stderr, "trestle: %s\n", msg)
		mcpbridge.AnswerFirstRequest(in, out, "trestle --mcp-attach could not attach: "+msg)
		return 1
	}
	if dir != "" {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return fail(fmt.Sprintf("the project folder %s does not exist or is not a folder; pass the folder of a project open in a Trestle window: trestle --mcp-attach DIR", dir))
		}
	}
	paths, err := userPaths()
	if err != nil {
		return fail(err.Error())
	}
	reg := paths.reg()
	cwd, _ := os.Getwd()
	entry, entries, err := findWindow(reg, dir, cwd)
	if err != nil {
		return fail(noWindow(err))
	}
	if twins := registry.Twins(entries, entry); len(twins) > 0 {
		others := make([]string, len(twins))
		for i, e := range twins {
			others[i] = registry.Describe(e)
		}
		fmt.Fprintf(os.Stderr, "trestle: %d Trestle windows are open on %s; attaching to the one started last, %s (also open: %s)\n",
			len(twins)+1, entry.Dir, registry.Describe(entry), strings.Join(others, "; "))
	}
	// The bridge connects when the client first speaks, which may be long
	// after it started: the window may have restarted its listener (a new
	// port and token) or been reopened by then, so it is looked up again.
	find := func() (string, string, error) {
		now, _, err := findWindow(reg, dir, cwd)
		if err != nil {
			return "", "", &notFoundError{err}
		}
		if now.PID != entry.PID || now.Port != entry.Port {
			fmt.Fprintf(os.Stderr, "trestle: the window found at start (pid %d, port %d) has moved or closed; attaching to the one open now, %s, port %d\n",
				entry.PID, entry.Port, registry.Describe(now), now.Port)
		}
		entry = now
		return "127.0.0.1:" + strconv.Itoa(entry.Port), entry.Token, nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = mcpbridge.AttachTo(ctx, find, in, out)
	var full *mcpbridge.FullError
	var refused *registry.RefusedError
	var notFound *notFoundError
	switch {
	case err == nil, ctx.Err() != nil: // done, or the client ended us with a signal
		return 0
	case errors.As(err, &notFound):
		return fail(noWindow(notFound.err))
	case errors.As(err, &full): // the window answered the client itself
		fmt.Fprintf(os.Stderr, "trestle: refused: %d agents attached to the window for %s; detach one\n", full.Attached, entry.Dir)
		return 1
	case errors.As(err, &refused):
		return fail(fmt.Sprintf("the window for %s (pid %d) %s", entry.Dir, entry.PID, refused.Message))
	case errors.Is(err, registry.ErrNotTrestle):
		return fail(fmt.Sprintf("not attaching to port %d for %s (pid %d): %v; neither the token nor the agent's messages were sent to it; reopen the window",
			entry.Port, entry.Dir, entry.PID, err))
	case errors.Is(err, mcpbridge.ErrWindowGone):
		fmt.Fprintf(os.Stderr, "trestle: the Trestle window for %s (pid %d) went away; reopen it and attach again\n",
			entry.Dir, entry.PID)
		return 1
	}
	var notAttached *mcpbridge.NotAttachedError
	if errors.As(err, &notAttached) {
		return fail(fmt.Sprintf("attach to the window for %s (pid %d): %v; is the window still open? reopen it and attach again", entry.Dir, entry.PID, err))
	}
	fmt.Fprintf(os.Stderr, "trestle: attach to the window for %s (pid %d): %v\n", entry.Dir, entry.PID, err)
	return 1
}

// noWindow is the message for a window that could not be found, with what
// to do: open one, or serve the folder headless.
func noWindow(err error) string {
	var nm *registry.NoMatchError
	if errors.As(err, &nm) && len(nm.Entries) == 0 {
		return err.Error() + " (or, without a window, serve it headless: trestle --mcp DIR)"
	}
	return err.Error()
}

// findWindow checks that the registry is private to the user, reaps it
// (dropping entries whose port does not answer as a window) and discovers
// the live window for dir, seen from cwd; it also returns every live entry.
func findWindow(reg *registry.Registry, dir, cwd string) (registry.Entry, []registry.Entry, error) {
	if err := reg.CheckPrivate(); err != nil { // before trusting any entry in it
		return registry.Entry{}, nil, err
	}
	entries, err := reg.ReapUnanswered(registry.ProbeTimeout)
	if err != nil {
		return registry.Entry{}, nil, err
	}
	e, err := registry.Discover(entries, dir, cwd)
	return e, entries, err
}

// notFoundError is a window that could not be found again when the client
// first spoke.
type notFoundError struct{ err error }

func (e *notFoundError) Error() string { return e.err.Error() }
