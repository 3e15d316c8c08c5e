// Package linediff is Trestle's line diff: the line edits from one text to
// another, minimal when that is cheap enough, else anchored on the lines
// found once on each side as patience diff is, with go-udiff's bounded
// diff only where nothing anchors (see Edits). The change-set hunks and
// the editor's git gutter are both drawn from it, so a change looks the
// same in both.
//
// It is plain computation: it imports nothing of Trestle's and nothing of
// Fyne, does no I/O and is safe for concurrent use.
package linediff
