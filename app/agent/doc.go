// Package agent is what an agent may ask of the workbench, whatever
// protocol it speaks: read, search and symbols; propose, withdraw and
// await a change set; evaluate; run, stop and follow a task; tell the
// person something; look at the workbench. Each operation is a plain Go
// method on *Agent over app types, with the permission gate, the window's
// activity record and the caller's identity (Caller) applied here, once.
// mcpbridge is an adapter over it (decode arguments, call, encode the
// answer); a second protocol adapter (ACP, HTTP) sits beside it and needs
// nothing from mcpbridge.
//
// Definition, References and Rename take a Target, a symbol as written in
// a Go file or a line and column there, and read it as Go reads that file
// (gopls_position.go); the source lines of their answers are read once
// per file (gopls_source.go).
//
// It must never import a protocol (mcp-go), mcpbridge, ui or Fyne
// (internal/layout's TestImportRules fails the build), and builds with
// CGO_ENABLED=0. It reaches the window only through workbench.Window and
// Activity, both nil without a window. Nothing here writes to os.Stdout.
//
// Errors say what went wrong in words an agent can act on, and carry their
// kind as an errdefs sentinel (errdefs.Errorf): ErrRefused (policy, the
// person, trust), ErrBusy (no answer in time), ErrNotFound (nothing to act
// on), ErrInvalid (a bad argument) or ErrOutside. Adapters map the kind to
// their protocol's states (mcpbridge: refused, busy, none, problem); they
// add no words of their own to an error.
//
// # Adding an operation
//
// An operation is one exported method in the file of its concern (eval.go,
// run.go, changesets.go, read.go, gopls.go, diagnostics.go, notify.go,
// workbench.go; a new concern gets its own file), and a test beside it in this package:
//
//	// Files lists the project's files under a folder, by glob, at most limit.
//	func (a *Agent) Files(ctx context.Context, under, glob string, limit int) ([]string, bool, error) {
//		return a.cfg.Project.ListFiles(ctx, under, glob, limit)
//	}
//
// Name it with an Op in offers.go (allOps) and say in opNeeds what it
// needs (the window, a service), so that Offers tells adapters when to
// serve it (TestEveryOpIsAMethod checks both).
//
// Take ctx first; take the Caller when the operation acts for someone (it
// asks the gate, shows the person who did it, or owns what it makes); take
// arguments as plain values or an <Op>Input struct, and answer with app
// types or an <Op>Output struct. Ask the gate with a.Permit before anything
// runs, tell the window through a.cfg.Activity, and report long waits to
// who.Progress when it is not nil. The method is then served by each
// protocol adapter with no change here (for MCP, see mcpbridge's package
// doc).
package agent
