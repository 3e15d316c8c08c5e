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
	entries, err := paths.reg().ReapUnanswered(registry.ProbeTimeout)
	if err != nil {
		fmt.Fprintf(stderr, "trestle: %v\n", err)
		return 1
	}
	io.WriteString(stdout, registry.Format(entries))
	return 0
}
