// Package review is the change-set review: the list of proposals, a
// proposal's description and per-file diffs, and the person's decisions
// (apply, reject with a reason, revert).
//
// It talks to the window around it only through Host, and knows nothing
// else of it: the window (package ui) implements Host, shows the view's
// tab and tells it what happens to files and editors. The Manager does
// the store and file work; the view does it off the main goroutine and
// changes widgets only on it (fyne.Do).
//
// review must never import package ui or fyne.io/fyne/v2/app, touch a
// widget off the main goroutine, or write a project file itself.
package review
