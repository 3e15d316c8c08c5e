// Package workbench is what the window shows that the MCP window tools read:
// the Window interface the ui package implements, and the values crossing it
// (open tabs, the editor selection, attached clients, agent tool calls).
//
// It sits under both ui and mcpbridge so that neither imports the other: ui
// must not pull in MCP, and mcpbridge must not pull in Fyne. It holds types
// and an interface only.
package workbench
