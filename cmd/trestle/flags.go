package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

type mode int

const (
	modeWindow mode = iota
	modeMCP
	modeAttach
	modeList
	modeConfig
	modeHelp
	modeVersion
	modeWorker // hidden: an evaluator worker process
)

// invocation is what the command line asked for.
type invocation struct {
	mode   mode
	dir    string // "" when not given
	client string // mcp-config --client
	policy string // --agent-policy, "" when not given
	trust  bool   // --trust: trust the project for this run
}

const helpText = `Trestle: a Go workbench that coding agents attach to over MCP.

Usage:
  trestle [DIR]                  open the window on DIR (default: the last project,
                                 or on first run a scratch Go module)
  trestle --mcp [DIR]            serve MCP over stdio for DIR (default: the current
                                 folder), headless: no window
  trestle --mcp-attach [DIR]     bridge stdio to the live window whose project is or
                                 contains DIR (default: the current folder, else the
                                 only open window); this is what an agent runs
  trestle --agent-policy ask|allow|deny [DIR]
                                 the window, with this policy for agents' evaluations
                                 and runs (default: the stored setting, ask); with
                                 --mcp the default is allow
  trestle --trust [--mcp] [DIR]  trust DIR for this run only: its git settings,
                                 .trestle.json tasks and environment are used (an
                                 untrusted project, the default until the person
                                 trusts it in the window, withholds them)
  trestle --list                 list the live windows (pid, port, project, started)
  trestle mcp-config [--client claude|cursor|codex|all]
                                 print the configuration that attaches each client
  trestle changes list [DIR]     list the change sets agents proposed for DIR (default:
                                 the current folder), newest first
  trestle changes show ID [DIR]  print a change set's description, history and hunks,
                                 numbered per file
  trestle changes apply ID [--file PATH]... [--hunk PATH:N]... [DIR]
                                 apply every pending hunk, or just those; refused, with
                                 the files named, when any changed since the proposal
  trestle changes reject ID [--reason R] [--file PATH]... [--hunk PATH:N]... [DIR]
                                 reject a change set (or part), with a reason the agent reads
  trestle changes revert ID [--yes] [DIR]
                                 put back what it applied (asks first); undo-revert ID
                                 applies it again; trestle changes --help says more
  trestle --version              print the version
  trestle --help                 this text

Per-user state (registry of windows, store, scratch project) lives in
$XDG_CONFIG_HOME/trestle (usually ~/.config/trestle); TRESTLE_CONFIG_DIR overrides it.
In --mcp and --mcp-attach modes stdout carries JSON-RPC only; messages go to stderr.
`

func printHelp(w io.Writer) { io.WriteString(w, helpText) }

// usageError prints one line on stderr and returns exit code 2.
func usageError(err error) int {
	fmt.Fprintf(os.Stderr, "trestle: %v (see trestle --help)\n", err)
	return 2
}

func parseArgs(args []string) (invocation, error) {
	if len(args) > 0 && args[0] == "mcp-config" {
		return parseConfigArgs(args[1:])
	}
	fs := flag.NewFlagSet("trestle", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	mcp := fs.Bool("mcp", false, "")
	attach := fs.Bool("mcp-attach", false, "")
	list := fs.Bool("list", false, "")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	ver := fs.Bool("version", false, "")
	worker := fs.Bool("eval-worker", false, "")
	policy := fs.String("agent-policy", "", "")
	trustFlag := fs.Bool("trust", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return invocation{mode: modeHelp}, nil
		}
		return invocation{}, err
	}
	chosen := map[string]bool{"--mcp": *mcp, "--mcp-attach": *attach, "--list": *list, "--eval-worker": *worker}
	var names []string
	for name, on := range chosen {
		if on {
			names = append(names, name)
		}
	}
	if len(names) > 1 {
		return invocation{}, fmt.Errorf("choose one of %s", strings.Join(names, ", "))
	}
	if *policy != "" && *policy != "ask" && *policy != "allow" && *policy != "deny" {
		return invocation{}, fmt.Errorf("--agent-policy %q: use ask, allow or deny", *policy)
	}
	if *policy != "" && (*attach || *list || *worker) {
		return invocation{}, errors.New("--agent-policy applies to the window and --mcp only")
	}
	if *trustFlag && (*attach || *list || *worker) {
		return invocation{}, errors.New("--trust applies to the window and --mcp only")
	}
	inv := invocation{mode: modeWindow, policy: *policy, trust: *trustFlag}
	switch {
	case *help:
		return invocation{mode: modeHelp}, nil
	case *ver:
		return invocation{mode: modeVersion}, nil
	case *mcp:
		inv.mode = modeMCP
	case *attach:
		inv.mode = modeAttach
	case *list:
		inv.mode = modeList
	case *worker:
		return invocation{mode: modeWorker}, nil
	}
	return withDir(inv, fs.Args())
}

// withDir takes the optional DIR argument and checks it is a folder.
func withDir(inv invocation, rest []string) (invocation, error) {
	if len(rest) > 1 {
		return invocation{}, fmt.Errorf("expected at most one DIR, got %q", rest)
	}
	if len(rest) == 0 {
		return inv, nil
	}
	if inv.mode == modeList {
		return invocation{}, fmt.Errorf("--list takes no DIR, got %q", rest[0])
	}
	if rest[0] == "" {
		return invocation{}, errors.New("DIR is empty; pass a folder or leave it out")
	}
	if inv.mode == modeAttach { // runAttach answers the client's first request with the problem
		inv.dir = rest[0]
		return inv, nil
	}
	info, err := os.Stat(rest[0])
	if err != nil {
		return invocation{}, fmt.Errorf("no such folder: %s", rest[0])
	}
	if !info.IsDir() {
		return invocation{}, fmt.Errorf("not a folder: %s", rest[0])
	}
	inv.dir = rest[0]
	return inv, nil
}

func parseConfigArgs(args []string) (invocation, error) {
	fs := flag.NewFlagSet("mcp-config", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	client := fs.String("client", "", "")
	if err := fs.Parse(args); err != nil {
		return invocation{}, fmt.Errorf("mcp-config: %v", err)
	}
	if fs.NArg() > 0 {
		return invocation{}, fmt.Errorf("mcp-config takes no arguments, got %q", fs.Args())
	}
	switch *client {
	case "", "all", "claude", "cursor", "codex":
	default:
		return invocation{}, fmt.Errorf("mcp-config: unknown client %q; use claude, cursor, codex or all", *client)
	}
	return invocation{mode: modeConfig, client: *client}, nil
}
