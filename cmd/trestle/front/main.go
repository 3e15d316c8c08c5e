// Command front is the `trestle` people run: `make build` puts it in
// bin/trestle, beside the workbench (package cmd/trestle) in
// bin/trestle-workbench, and `make package` bundles both. It runs
// `trestle changes` itself and hands every other command line to the
// workbench, which replaces it in the same process (same pid, arguments,
// environment and standard files), so the window, `--mcp`, `--mcp-attach`
// and the rest behave as if started directly.
//
// Why a second binary: Go runs every linked package's init before main,
// whatever the subcommand, and the workbench links Fyne (its translations
// alone take about 1.3 ms), yaegi's stdlib tables, goldmark, the font
// scanner and the GL and X11 libraries. Measured on the development VM,
// `trestle-workbench --version` costs about 15 ms of CPU and 1,350 page
// faults, where this front's start costs about 2 ms: a third of a
// 200-file `trestle changes apply`, which a person runs from a terminal
// and compares with `git apply` (docs/performance.md). The front links
// only package changes and what it needs (the store, the project, the
// change sets); internal/layout's test keeps it that way.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"trestle/app/store"
	"trestle/cmd/trestle/changes"
)

// workbenchName is the workbench binary's file name, beside this one.
const workbenchName = "trestle-workbench"

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "changes" {
		os.Exit(changes.Main(args[1:], os.Stdin, os.Stdout, os.Stderr, store.DefaultPath))
	}
	exe, err := os.Executable() // the real file, symlinks resolved (/proc/self/exe)
	if err != nil {
		fmt.Fprintf(os.Stderr, "trestle: find this binary's folder: %v\n", err)
		os.Exit(1)
	}
	workbench := filepath.Join(filepath.Dir(exe), workbenchName+filepath.Ext(exe)) // .exe on Windows
	err = handOff(workbench, args)
	fmt.Fprintf(os.Stderr, "trestle: start %s: %v; trestle needs %s beside it (make build puts both in bin/, make package bundles both)\n",
		workbench, err, workbenchName)
	os.Exit(1)
}
