// Package changes is `trestle changes`: reviewing the change sets agents
// proposed from a terminal (list, show, apply, reject, revert,
// undo-revert), with the same app/changeset code the window uses.
//
// Parse reads the command line and Run runs it against the store. Text an
// agent wrote is printed with its control characters escaped, so it never
// reaches the terminal raw. Nothing here writes to os.Stdout but through
// the writer Run is given.
package changes
