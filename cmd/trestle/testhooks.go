//go:build trestle_testhooks

package main

import (
	"os"

	"trestle/mcpbridge"
)

// withTestHooks adds the test-only tools (trestle_debug_stall,
// trestle_debug_apply) to the window's server when TRESTLE_TEST_HOOKS=1.
// They exist only in a binary built with -tags trestle_testhooks, as the
// end-to-end tests build it: the shipped binary has neither.
func withTestHooks(opts *mcpbridge.Options, win *lateWindow) {
	if os.Getenv("TRESTLE_TEST_HOOKS") == "1" {
		opts.Stall = win.Stall
		opts.ApplyAsPerson = win.ApplyAsPerson
	}
}
