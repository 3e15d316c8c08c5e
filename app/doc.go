// Package app is the workbench core: the project and its files, the per-user
// config folder, the store and the scratch project. The window (package ui)
// and the MCP tools (package mcpbridge) are both built on it.
//
// app never imports Fyne, builds with CGO_ENABLED=0 and is tested without a
// display. Nothing here writes to os.Stdout: in --mcp mode stdout belongs to
// JSON-RPC.
package app
