package ui

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app"
)

// findButton returns the button labelled text in the top overlay.
func findButton(c fyne.Canvas, text string) *widget.Button {
	top := c.Overlays().Top()
	if top == nil {
		return nil
	}
	var found *widget.Button
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			found = b
		}
		switch v := o.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(v).Objects() {
				walk(c)
			}
		}
	}
	walk(top)
	return found
}

func TestAskReturnsThePersonsAnswer(t *testing.T) {
	for _, tc := range []struct {
		button string
		want   app.Decision
	}{
		{"Allow once", app.AllowOnce},
		{"Allow for this session", app.AllowSession},
		{"Deny", app.Deny},
	} {
		t.Run(tc.button, func(t *testing.T) {
			w := newTestWindow(t)
			// One fake main goroutine runs both Ask's bounded call and the
			// test's look at the dialog, as the real driver's would: the test
			// driver would otherwise run them inline on two goroutines at once.
			fake, run := fakeMain(t)
			old := mainThread
			mainThread = fake
			defer func() { mainThread = old }()
			onMain := func(fn func()) {
				done := make(chan struct{})
				run <- func() { fn(); close(done) }
				<-done
			}
			req := app.PermissionRequest{Client: "claude-code", Session: "conn-1", Kind: "evaluate", Detail: "os.RemoveAll(\"/\")"}
			got := make(chan app.Decision, 1)
			go func() {
				d, err := w.Ask(context.Background(), req)
				if err != nil {
					t.Error(err)
				}
				got <- d
			}()
			var b *widget.Button
			for deadline := time.Now().Add(5 * time.Second); b == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				onMain(func() { b = findButton(w.win.Canvas(), tc.button) })
			}
			if b == nil {
				t.Fatalf("no %q button in the dialog", tc.button)
			}
			onMain(func() { test.Tap(b) })
			select {
			case d := <-got:
				if d != tc.want {
					t.Fatalf("decision %v, want %v", d, tc.want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Ask did not return after the tap")
			}
		})
	}
}

func TestAskDeniesWhenTheCallerGivesUp(t *testing.T) {
	w := newTestWindow(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	d, err := w.Ask(ctx, app.PermissionRequest{Client: "c", Kind: "run", Detail: "go test ./..."})
	if err != nil || d != app.Deny {
		t.Fatalf("got %v, %v; want Deny", d, err)
	}
}
