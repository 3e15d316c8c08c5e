// Package layout holds no code: its test checks the import rules of
// Trestle's layout (docs/architecture.md) against `go list`, so that a
// package that breaks them fails the build. app never imports Fyne, ui or
// mcpbridge; app/agent, the layer under every agent protocol, imports no
// protocol (mcp-go); ui and mcpbridge never import each other; the widgets under
// ui know nothing of the window; registry imports nothing of ours; only
// cmd/trestle imports fyne.io/fyne/v2/app; the `trestle` front
// (cmd/trestle/front) links neither the GUI nor the evaluator.
package layout
