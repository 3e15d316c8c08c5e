// Package mcpbridge is Trestle's Model Context Protocol side: the tool
// definitions and handlers, per-connection MCP sessions, the loopback
// listener a window runs, the --mcp stdio server and the --mcp-attach bridge.
//
// It reaches the UI only through workbench.Window (package app/workbench,
// which ui implements without importing mcpbridge), whose methods are
// bounded main-thread calls; it never imports Fyne. Nothing here writes to
// os.Stdout except through the writer a caller hands in: in --mcp and
// --mcp-attach modes stdout carries JSON-RPC and nothing else.
//
// Where things are: tools.go is the whole tool surface (toolsets, each tool
// declared read-only or write, and which toolsets each mode serves);
// tool.go the helpers every tool uses; tool_<name>.go one tool each.
// serve.go and dispatch.go serve one MCP session over any stream (a socket,
// or stdio for --mcp); listener.go, handshake.go and places.go are the
// window's loopback socket; attach.go is the --mcp-attach bridge.
package mcpbridge
