// Package supervise keeps a window's MCP listener running and findable: it
// starts and stops the loopback listener as the person turns it on and off,
// writes the registry entry that --mcp-attach finds (and writes it again if
// another process reaped it), and restarts a listener that died, with a new
// port and token, backing off while that fails.
//
// It knows the window only as a Status (the status bar), and the server
// only as a function that makes a listener for a token; cmd/trestle wires
// them. It never imports Fyne and never writes to os.Stdout.
package supervise
