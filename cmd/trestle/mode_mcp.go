package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"trestle/app/permission"
	"trestle/mcpbridge"
)

// guardStdout hands back the real stdout for JSON-RPC and points os.Stdout
// at stderr, so a stray fmt.Print anywhere in the process cannot corrupt
// the protocol stream.
func guardStdout() *os.File {
	out := os.Stdout
	os.Stdout = os.Stderr
	return out
}

// runMCP serves MCP over stdio for dir, headless (--mcp). It never creates
// a Fyne app. The project is trusted when the person trusted it in the
// window (the store remembers) or trustFlag (--trust) says so for this
// run; otherwise it is untrusted, whatever the policy.
func runMCP(dir, policy string, trustFlag bool) int {
	out := guardStdout()
	project, ok := openProjectOrFail(dir)
	if !ok {
		return 1
	}
	logger := newLogger()
	if policy == "" {
		policy = permission.PolicyAllow // headless: nobody is there to ask
	}
	paths, err := userPaths()
	if err != nil {
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return 1
	}
	db := openStore(paths, logger)
	services := newServices(project, db, policy, nil, loadTrust(project, db, trustFlag, logger))
	defer services.Eval.Close()
	startChangeSets(services.ChangeSets, logger)
	defer services.LSP.Close()
	srv := mcpbridge.NewServer(mcpbridge.Options{Project: project, Version: version, Logger: logger, Services: services})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := mcpbridge.ServeStdio(ctx, srv, os.Stdin, out); err != nil {
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return 1
	}
	return 0
}
