// Package ui is Trestle's window: the file tree, the tabs where files open,
// the bottom panes, the status bar, and the bounded main-thread call through
// which everything outside the window (the MCP tools above all) reaches it.
// New makes the window from its Options in one go. Widgets that know
// nothing of the window live in their own packages: the code editor is
// ui/editor.
//
// The threading rule: widgets are touched only on Fyne's main goroutine.
// The window's one way there is its mainThread (mainthread.go), the only
// code here that calls fyne.Do (TestFyneDoOnlyInMainThread): onMain for a
// change from another goroutine, main.call for a caller that needs an
// answer (it gives up after a bound and returns errdefs.ErrBusy),
// main.after and main.every for timers, and a streamBatch (streambatch.go)
// for a stream batched into few updates (a run's output, a hosted agent's
// updates). Once the window is closing
// (Quitting) all of them drop what they are given. File I/O happens before
// the call, never inside it. UI state lives in the window or in the part
// that owns it, never in a package-level variable (TestNoMutablePackageState).
//
// Window composes the parts and routes between them (New's steps, the
// exported calls from outside); a feature's logic lives
// in the part that owns it, a small type holding the window (w) for what
// it reaches: evalUI (evaluate.go: the person's evaluations, the Eval
// transcript, replay, the evaluator's status), goplsUI (lsp.go: gopls's
// status, diagnostics, format on save, the Go commands, its install), renamer (lsp_rename.go: F2
// and Undo Rename), gotoUI (lsp_places.go: definitions, references,
// outline), gitUI (gitgutter.go, gitpane.go: git status, the tree's tints,
// the gutter), trustUI (trust.go), runUI (tasks.go: the person's runs,
// every run's output, the question about unsaved files in unsaved.go),
// menuUI (menus.go: the main menu, Open Folder and Open Recent, About,
// quit), keysUI (keys.go: where keys go while a dialog is open, focus
// keys, Alt+letter and F10), settingsUI (settings.go: the settings and
// agent policy, the Settings dialog), configUI (config.go: .trestle.json
// and the active selection), layoutUI (layout.go: the splits and the
// layout remembered per project), quickOpenUI (quickopen.go: Go to File,
// the command palette), navUI (nav.go: back and forward) and askUI
// (permission.go: the questions agents wait on, one at a time). The
// editors' own work, such as reloading after a change on disk (reload.go)
// and Replace in Files (replace.go), is tabArea's. newWindow makes them; a
// new feature adds a part there, not methods on Window.
//
// reviewUI (review_host.go, review_inline.go, changesets_stale.go) is the
// change-set review's part: the Change Sets pane (ui/review's View, which
// reaches the main goroutine only through its Host's Do, w.main.do), the
// proposals shown in file tabs and the stale check of edited buffers. A
// part that follows the file tabs registers with tabs.onAdded, onTyped or
// onSaved (tabs.go), as gitUI and reviewUI do; the hooks run in the order
// registered, none wraps another.
//
// How to add a pane: write the pane in its own file: a type that owns its
// widgets and state and implements pane (panes.go: its title, content,
// focus target and what agents may read), and a make function that builds
// it for the window. Then add the make function to paneParts, in tab order.
// That one entry gives the pane its tab, its View menu item "<title> Pane",
// its keyboard focus, its place in trestle_output when it names itself to
// agents, and, when it implements filesWatcher, the disk's changes.
// TestPanesAreParts checks every registered pane gets all of these.
//
// How to add a setting: add the field to store.Settings with its default
// in store.DefaultSettings and its range in Settings.Validate (app/store),
// then one row in settingTable (settings_table.go): label, hint, the field's
// name and its widget (check, choice or number). The Settings dialog shows
// it and Save reads it back; TestSettingsTableCoversEveryField fails until
// the row exists, and TestSettingsEveryFieldRoundTrips until the field
// round-trips through the form.
//
// ui must never import fyne.io/fyne/v2/app (only cmd/trestle creates the
// Fyne application), touch a widget off the main goroutine, or call
// fyne.DoAndWait (from the main goroutine it deadlocks).
package ui
