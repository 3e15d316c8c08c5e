package main

import (
	"os"
	"testing"
	"time"
)

// windowInitializeBound is how long the window lets a connection that gave
// the token go without initialize (mcpbridge's defaultInitializeTimeout).
const windowInitializeBound = 5 * time.Second

// TestAttachServesAClientThatWaitsBeforeInitialize starts the real bridge
// and says nothing for longer than the window's initialize bound, then
// initializes: the bridge connects on the client's first line, so the
// client is served. It used to connect and give the token at start, and
// the window closed it after the bound ("the window went away").
func TestAttachServesAClientThatWaitsBeforeInitialize(t *testing.T) {
	config := t.TempDir()
	w := startFakeWindow(t, config, testProject(t), os.Getpid(), time.Now())
	b := startRawBridge(t, []string{"TRESTLE_CONFIG_DIR=" + config, "DISPLAY="}, "--mcp-attach", w.entry.Dir)
	// The client idles past the bound: the behaviour under test, not a
	// wait for something to happen.
	time.Sleep(windowInitializeBound + time.Second)
	if clients := w.l.Clients(); len(clients) != 0 {
		t.Fatalf("attached before the client said anything: %+v", clients)
	}
	b.send(t, initLine)
	if m := b.recv(t); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize after %v idle: %v (stderr: %s)", windowInitializeBound+time.Second, m, b.stderr.String())
	}
	b.stdin.Close()
	select {
	case err := <-b.done:
		if err != nil {
			t.Fatalf("bridge: %v (stderr: %s)", err, b.stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the bridge did not end after stdin closed")
	}
}
