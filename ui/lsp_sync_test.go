package ui

import (
	"context"
	"sync/atomic"
	"testing"

	"trestle/app/agent"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/workbench"
)

// countingWindow is the window as agents reach it, counting the editor
// texts they read.
type countingWindow struct {
	*Window
	buffers atomic.Int32
	read    atomic.Value // the last path read
}

func (c *countingWindow) Buffer(ctx context.Context, p project.Path) (string, bool, bool, error) {
	c.buffers.Add(1)
	c.read.Store(p.Rel())
	return c.Window.Buffer(ctx, p)
}

var _ workbench.Window = (*countingWindow)(nil)

// TestAgentGoplsCallsReadOnlyChangedEditors: an agent's gopls call sends
// gopls only the open editors whose text it does not hold yet: none after
// the editors synced their typing themselves, one after the person typed
// in one of two editors and gopls was not sent it yet.
func TestAgentGoplsCallsReadOnlyChangedEditors(t *testing.T) {
	w, q := goplsWindow(t)
	client := w.gopls.client
	main := openGoEditor(t, w, "main.go")
	lib := openGoEditor(t, w, "lib.go")
	typeAt(main, 4, 8, " + 1")
	drainUntil(t, w, q, "the editors' own sync", func() bool {
		return client.Holds("main.go", main.Buffer().Version()) && client.Holds("lib.go", lib.Buffer().Version())
	})
	cw := &countingWindow{Window: w}
	a := agent.New(agent.Config{Project: w.project, Window: cw, Services: services.Services{LSP: client}})
	ask := func() {
		_, _, cancel := a.Gopls(context.Background())
		cancel()
	}
	ask()
	if n := cw.buffers.Load(); n != 0 {
		t.Fatalf("a gopls call after the editors synced read %d editor texts, want none", n)
	}
	typeAt(lib, 4, 1, "// typed\n") // not sent yet: the editor waits for a pause in typing
	ask()
	if n, read := cw.buffers.Load(), cw.read.Load(); n != 1 || read != "lib.go" {
		t.Fatalf("a gopls call after typing in lib.go read %d editor texts (last %v), want lib.go's only", n, read)
	}
	if !client.Holds("lib.go", lib.Buffer().Version()) {
		t.Error("gopls was not sent lib.go's new text")
	}
	ask()
	if n := cw.buffers.Load(); n != 1 {
		t.Errorf("a second call read %d editor texts in all, want still 1", n)
	}
}
