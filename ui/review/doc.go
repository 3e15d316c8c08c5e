// Package review is the change-set review: the Change Sets pane (the list
// of proposals), a review tab per change set in the editor area (its file
// list, description and history, and each file's hunks from
// changeset.Hunks with Accept and Reject, word-level tints, Go syntax
// colours, unified or side by side wrapped to the width), and the inline
// view of a file's proposed hunks that the window shows in the file's tab.
//
// It talks to the window around it only through Host, and knows nothing
// else of it: the window (package ui, review_host.go) implements Host,
// shows the view's tabs and tells it what happens to files and editors.
// The Manager does the store and file work; the view does it off the main
// goroutine and changes widgets only on it, reached through Host.Do (the
// window's closing-aware way there; review never calls fyne.Do itself,
// TestFyneDoOnlyInMainThread in package ui checks it). Whatever writes
// files (apply, revert, undo of a revert) first asks Host which of them
// have unsaved edits in an editor: those are saved with the person's
// consent, or nothing is written.
//
// review must never import package ui or fyne.io/fyne/v2/app, touch a
// widget off the main goroutine, or write a project file itself.
package review
