package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"trestle/app/agent"
	"trestle/app/ignore"
	"trestle/app/lsp"
	"trestle/app/permission"
	"trestle/app/watch"
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
		policy = permission.PolicyAllow // headless: no window to ask in
	}
	paths, err := userPaths()
	if err != nil {
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return 1
	}
	db := openStore(paths, logger)
	// Under --agent-policy ask, the person is asked through the client's
	// elicitation when it offers it; otherwise the request is refused.
	services := newServices(project, db, policy, mcpbridge.AskThroughClient, loadTrust(project, db, trustFlag, logger))
	defer services.Eval.Close()
	startChangeSets(services.ChangeSets, logger)
	defer services.LSP.Close()
	srv := mcpbridge.NewServer(agent.New(agent.Config{Project: project, Services: services}), mcpbridge.Options{Version: version, Logger: logger})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	watchForGopls(ctx, project.Root, project.Ignore(), services.LSP, logger)
	if err := mcpbridge.ServeStdio(ctx, srv, os.Stdin, out); err != nil {
		fmt.Fprintf(os.Stderr, "trestle: %v\n", err)
		return 1
	}
	return 0
}

// watchForGopls tells gopls of every change on disk under root until ctx
// ends, as the window's watcher does: without it gopls would not see a
// file another program writes. The project's ignore matcher ign hears of
// changed .gitignore files. A watcher that cannot start is logged; the
// server goes on without it.
func watchForGopls(ctx context.Context, root string, ign *ignore.Matcher, c *lsp.Client, logger *log.Logger) {
	if c == nil {
		return
	}
	_, err := watch.Start(ctx, root, watch.Options{
		SkipDir: func(rel string) bool { return ign.Ignored(rel, true) },
		OnBatch: func(events []watch.Event) { ign.Saw(events); c.DiskChanged(events) },
		OnError: func(err error) { logger.Printf("watch: %v", err) },
	})
	if err != nil {
		logger.Printf("watch %s: %v (gopls will not hear of changes made on disk)", root, err)
	}
}
