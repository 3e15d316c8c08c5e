package main

import "os"

// noDisplay is the one line runWindow prints, instead of opening the
// window, when the process has no display to open it on: with neither
// DISPLAY nor WAYLAND_DISPLAY set, Fyne's GLFW driver panics with a long
// trace that says nothing a person can act on. It is "" when a display
// is named (whether it answers is left to Fyne).
func noDisplay() string {
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		return ""
	}
	return "trestle: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset): " +
		"run it from a desktop session, set DISPLAY (e.g. DISPLAY=:0, or start Xvfb), " +
		"or use `trestle --mcp DIR` for the headless server"
}
