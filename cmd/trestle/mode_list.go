package main

import (
	"fmt"
	"io"

	"trestle/registry"
)

// runList prints the live windows, reaping dead entries (--list).
func runList(stdout, stderr io.Writer) int {
	paths, err := userPaths()
	if err != nil {
		fmt.Fprintf(stderr, "trestle: %v\n", err)
		return 1
	}
	reg := paths.reg()
	if err := reg.CheckPrivate(); err != nil { // listing is harmless, but say so: attaching will refuse
		fmt.Fprintf(stderr, "trestle: warning: %v\n", err)
	}
	entries, err := reg.ReapUnanswered(registry.ProbeTimeout)
	if err != nil {
		fmt.Fprintf(stderr, "trestle: %v\n", err)
		return 1
	}
	io.WriteString(stdout, registry.Format(entries))
	return 0
}
