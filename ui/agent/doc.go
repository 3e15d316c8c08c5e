// Package agent is the Agent pane's widget: the agent's command line (a
// choice of known agents or a custom one), Start and Stop, a transcript of
// the session (the person's prompts, the agent's streamed messages and
// thoughts, its tool calls with their status, its plan, and Trestle's own
// notes), and a prompt box with Send and Cancel.
//
// It knows nothing of the window, of the agent process or of change sets:
// the window hosts the session (package acp) and hands the pane its
// updates in batches, on the main goroutine. Text from the agent is
// hostile: it is shown as plain text only, with control, bidi and
// invisible characters written as escapes, and bounded in size.
//
// Everything here must be called on Fyne's main goroutine.
package agent
