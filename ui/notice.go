package ui

import (
	"context"
	"regexp"
	"time"
)

// Agents' notices (trestle_notify) never take the window: each one shows
// as a toast in the bottom right corner that fades out by itself after
// toastLifetime (hovering holds it, tapping keeps it), and stays in the
// notification list behind the status bar's bell, whose count is the
// notices not yet looked at. A notice that names a change set ("cs-12")
// has a Review button that opens it. The list is notices.go's
// noticeCenter; a toast and its fade are toast.go's.

// maxNotice bounds what a notice shows.
const maxNotice = 2000

// changeSetRef finds the change set a notice refers to: its first
// "cs-<n>", the form every change set id takes.
var changeSetRef = regexp.MustCompile(`\bcs-[0-9]+\b`)

// Notice shows an agent's message to the person as a toast that names the
// client and keeps it in the notification list. One bounded main-thread
// call; safe for concurrent use from any goroutine but the main one.
func (w *Window) Notice(ctx context.Context, client, message string) error {
	if len(message) > maxNotice {
		message = message[:maxNotice] + "…"
	}
	if client == "" {
		client = "an agent"
	}
	n := notice{client: client, message: message, changeSet: changeSetRef.FindString(message), at: time.Now()}
	return w.main.call(ctx, 0, func() { w.notices.add(n) })
}

// reviewChangeSet brings the change set id forward for review: its review
// tab in the editor area, with the Change Sets pane. Main goroutine only.
func (w *Window) reviewChangeSet(id string) {
	if w.review.view == nil {
		w.status.notify("Change sets are not kept in this window (no store): " + id + " cannot be shown.")
		return
	}
	if !w.review.showSet(id) {
		w.status.notify(id + " is not among this project's change sets (yet).")
	}
}
