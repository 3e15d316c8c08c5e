// Package agent is the Agent pane's widget: the agent's command line (a
// choice of known agents, the person's own, or a custom one), Start,
// Stop, New session and Agents…, the agent's modes and models when it
// offers them, the project's earlier sessions with Resume, a transcript of
// the session (the person's prompts, the agent's streamed messages as
// markdown and its thoughts, its tool calls with their status, its plan,
// the commands it runs with their output, and Trestle's own notes), and a
// prompt box with Send and Cancel. The transcript takes the pane's height
// beyond one row of controls, the status line and the prompt (layout.go).
//
// It knows nothing of the window, of the agent process or of change sets:
// the window hosts the session (package acp) and hands the pane its
// updates in batches, on the main goroutine. Text from the agent is
// hostile: control, bidi and invisible characters are written as escapes,
// one-line strings are cut short (Short), everything is bounded in size,
// and its markdown is shown a row at a time with links and images made
// text (nothing opens a page or fetches an image).
//
// Everything here must be called on Fyne's main goroutine.
package agent
