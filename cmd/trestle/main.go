package main

import (
	"os"

	"trestle/app/store"
	"trestle/cmd/trestle/changes"
	_ "trestle/cmd/trestle/fynelocale" // before Fyne's init reads the locale
)

// version is Trestle's version; release builds set it with -ldflags "-X main.version=...".
var version = "0.1.0"

func main() {
	os.Exit(run(os.Args[1:]))
}

// run parses args and runs the chosen mode, returning the exit code: 0 on
// success, 1 when the mode failed, 2 for a usage error.
func run(args []string) int {
	if len(args) > 0 && args[0] == "changes" { // as the front runs it (cmd/trestle/front)
		return changes.Main(args[1:], os.Stdin, os.Stdout, os.Stderr, store.DefaultPath)
	}
	if len(args) > 0 && args[0] == "agent" {
		return runAgent(args[1:], os.Stdout, os.Stderr)
	}
	inv, err := parseArgs(args)
	if err != nil {
		return usageError(err)
	}
	switch inv.mode {
	case modeHelp:
		printHelp(os.Stdout)
		return 0
	case modeVersion:
		os.Stdout.WriteString("trestle " + version + "\n")
		return 0
	case modeList:
		return runList(os.Stdout, os.Stderr)
	case modeConfig:
		return runConfig(os.Stdout, os.Stderr, inv.client)
	case modeMCP:
		return runMCP(inv.dir, inv.policy, inv.trust)
	case modeWorker:
		return runWorker()
	case modeAttach:
		return runAttach(inv.dir)
	default:
		return runWindow(inv.dir, inv.policy, inv.trust)
	}
}
