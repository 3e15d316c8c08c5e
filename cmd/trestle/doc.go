// Command trestle is the Trestle workbench: a window for a Go project that
// MCP agents attach to, a headless MCP server, and the bridge between them.
// make build installs it as trestle-workbench, behind the small `trestle`
// front (cmd/trestle/front) that runs `trestle changes` itself and execs
// this binary for everything else; built alone it runs every command.
//
// main only parses flags and picks a mode; each mode is a function in its
// own file, or its own package (changes). This is the only package that
// imports fyne.io/fyne/v2/app. The test-only MCP tools are wired in only
// when built with -tags trestle_testhooks (testhooks.go), as the
// end-to-end tests build it; the shipped binary has none.
// In --mcp and --mcp-attach modes nothing here writes to the real stdout
// but the JSON-RPC stream: guardStdout points os.Stdout at stderr.
package main
