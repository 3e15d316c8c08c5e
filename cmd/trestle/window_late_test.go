package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"trestle/app/project"
	"trestle/app/workbench"
	"trestle/ui"
)

// TestLateWindowServesOnceSet: the listener reaches the window through a
// lateWindow from before ui.New has built it. A tool call made then waits
// and is answered by the window once it is set; one whose context ends
// first gives up with an error; the status updates made before (the
// listener's address, the attached agents) show on the window's status
// bar once it is set, the last of each.
func TestLateWindowServesOnceSet(t *testing.T) {
	a := test.NewTempApp(t)
	p, err := project.Open(testProject(t))
	if err != nil {
		t.Fatal(err)
	}
	late := newLateWindow()
	late.SetListener("", errors.New("not yet"))
	late.SetListener("127.0.0.1:4321", nil)
	late.SetClients(nil, 1)
	late.SetClients([]workbench.Client{{Name: "early-agent"}}, 0)
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := late.Tabs(gone); !errors.Is(err, context.Canceled) {
		t.Fatalf("Tabs with an ended context before the window: %v, want context.Canceled", err)
	}
	answered := make(chan error, 1)
	go func() {
		_, err := late.Tabs(context.Background())
		answered <- err
	}()
	win := ui.New(a, p, ui.Options{})
	late.set(win)
	if err := <-answered; err != nil {
		t.Fatalf("Tabs waiting for the window: %v", err)
	}
	win.Window().Resize(fyne.NewSize(2400, 720)) // the status row cuts nothing
	texts := shownTexts(win.Window().Canvas().Content())
	for _, want := range []string{"MCP: 127.0.0.1:4321", "early-agent"} {
		if !strings.Contains(texts, want) {
			t.Errorf("the status bar does not show %q after set; it shows:\n%s", want, texts)
		}
	}
}

// shownTexts is every text drawn within o, one a line.
func shownTexts(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, obj := range test.LaidOutObjects(o) {
		if t, ok := obj.(*canvas.Text); ok && obj.Visible() {
			b.WriteString(t.Text + "\n")
		}
	}
	return b.String()
}
