//go:build !trestle_testhooks

package main

import (
	"trestle/mcpbridge"
)

// withTestHooks adds nothing: the test-only tools are built only with
// -tags trestle_testhooks (see testhooks.go).
func withTestHooks(*mcpbridge.Options, *lateWindow) {}
