// Package app is the root of the workbench core and holds no code: each
// concern is a package of its own under it (project, store, permission,
// errdefs, workbench, projconf, changeset, eval, task, lsp, search, watch,
// gitstatus, ...). The window (package ui) and the MCP tools (package
// mcpbridge) are both built on them.
//
// Nothing under app imports Fyne, ui or mcpbridge; everything builds with
// CGO_ENABLED=0 and is tested without a display. Nothing here writes to
// os.Stdout: in --mcp mode stdout belongs to JSON-RPC.
package app
