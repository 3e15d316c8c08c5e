// Package acp hosts coding agents over the Agent Client Protocol
// (github.com/coder/acp-go-sdk): Trestle is the client, the agent a
// subprocess speaking JSON-RPC over its stdio, started inside the
// session's sandbox (package sandbox) with its working folder in the
// staging copy. The client side serves fs/read_text_file from the staging
// copy (or the person's editor text for a file the agent has not
// touched), takes fs/write_text_file into the staging copy only, runs
// terminal/* commands inside the sandbox, and hands
// session/request_permission to the caller under the permission policy
// (deny always wins). What the agent wrote becomes one change set through
// sandbox.Stage.Propose. The host hears of the commands run through
// terminal/* (Options.OnTerminal), can set the agent's mode and model and
// resume a session (session/load); SaveSession and SaveAgents keep the
// sessions and the person's own agents in the store.
//
// acp never imports Fyne, builds with CGO_ENABLED=0 and writes nothing to
// os.Stdout.
package acp
