package ui

import (
	"context"
	"strings"
	"testing"
)

func TestNoticeShowsTheMessageAndNamesTheClient(t *testing.T) {
	w := newTestWindow(t)
	if err := w.Notice(context.Background(), "claude-code", "Proposed a fix; please review."); err != nil {
		t.Fatal(err)
	}
	if w.win.Canvas().Overlays().Top() == nil {
		t.Fatal("no notice is showing")
	}
	if got := w.status.message.Text; !strings.Contains(got, "claude-code") || !strings.Contains(got, "please review") {
		t.Fatalf("status bar %q", got)
	}
	if b := findButton(w.win.Canvas(), "Dismiss"); b == nil {
		t.Fatal("the notice has no Dismiss button")
	}
}
