package supervise

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/app/agent"
	"trestle/app/project"
	"trestle/app/workbench"
	"trestle/internal/testfix"
	"trestle/mcpbridge"
	"trestle/registry"
)

// recordedStatus is a status bar that remembers what it was told.
type recordedStatus struct {
	mu     sync.Mutex
	addr   string
	err    error
	shown  []string // every listener text, in order
	agents int
}

func (s *recordedStatus) SetListener(addr string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addr, s.err = addr, err
	s.shown = append(s.shown, addr+" "+errString(err))
}

func (s *recordedStatus) SetClients(clients []workbench.Client, connecting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.agents = len(clients) + connecting
}

func (s *recordedStatus) history() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.shown, " | ")
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// dyingListener is a loopback socket that can be made to fail for good,
// as a listener whose socket the system took away.
type dyingListener struct {
	net.Listener
	die  chan struct{}
	once sync.Once
}

var errSocketDied = errors.New("the listening socket died")

func (d *dyingListener) Accept() (net.Conn, error) {
	c, err := d.Listener.Accept()
	select {
	case <-d.die:
		if c != nil {
			c.Close()
		}
		return nil, errSocketDied
	default:
	}
	return c, err
}

func (d *dyingListener) kill() {
	d.once.Do(func() { close(d.die); d.Listener.Close() })
}

// TestWindowListenerRestartsWhenItDies kills the window's listening
// socket: the registry entry stops pointing at the dead port, the status
// bar says the listener stopped, and a new listener (new port, new token)
// is registered and answers the probe. Before, Serve's error was only
// logged, and the status bar and the registry went on sending agents to a
// port nothing accepted on.
func TestWindowListenerRestartsWhenItDies(t *testing.T) {
	proj, err := project.Open(testProject(t))
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New(filepath.Join(t.TempDir(), "mcp"))
	status := &recordedStatus{}
	srv := mcpbridge.NewServer(agent.New(agent.Config{Project: proj}), mcpbridge.Options{Version: "test", Logger: log.New(io.Discard, "", 0)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var dying *dyingListener
	listen := func(token string) (*mcpbridge.Listener, error) {
		if dying != nil {
			return srv.Listen(token)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		dying = &dyingListener{Listener: ln, die: make(chan struct{})}
		return srv.ListenOn(dying, token)
	}
	w := New(ctx, Config{Dir: proj.Root, Version: "test", Status: status, Registry: reg, Logger: log.New(io.Discard, "", 0), Listen: listen})
	defer w.Stop()
	w.Start()
	first := onlyEntry(t, reg)
	if !registry.Answers(first, registry.ProbeTimeout) {
		t.Fatal("the first listener does not answer")
	}
	dying.kill()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("status: %s", status.history())
		}
	})
	var second registry.Entry
	testfix.Wait(t, 30*time.Second, "a new listener after the first died", func() bool {
		entries, _ := reg.Reap()
		if len(entries) == 1 && entries[0].Port != first.Port {
			second = entries[0]
			return true
		}
		return false
	})
	if second.Token == first.Token || !registry.Answers(second, registry.ProbeTimeout) {
		t.Fatalf("the new listener: %+v", second)
	}
	h := status.history()
	if !strings.Contains(h, "the listener stopped (") || !strings.Contains(h, "restarting") {
		t.Fatalf("the status bar never said the listener stopped: %s", h)
	}
	// The entry is written just before the status bar is told: wait for both.
	testfix.Wait(t, 30*time.Second, "the status bar shows the new port", func() bool {
		status.mu.Lock()
		addr, serr := status.addr, status.err
		status.mu.Unlock()
		return serr == nil && strings.HasSuffix(addr, ":"+strconv.Itoa(second.Port))
	})
}

// TestWindowListenerRewritesItsEntry removes the window's registry entry
// while its listener runs (a probe that timed out on a loaded machine does
// that): the window writes it again, so agents still find it.
func TestWindowListenerRewritesItsEntry(t *testing.T) {
	proj, err := project.Open(testProject(t))
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New(filepath.Join(t.TempDir(), "mcp"))
	srv := mcpbridge.NewServer(agent.New(agent.Config{Project: proj}), mcpbridge.Options{Version: "test", Logger: log.New(io.Discard, "", 0)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := New(ctx, Config{Dir: proj.Root, Version: "test", Status: &recordedStatus{}, Registry: reg, Logger: log.New(io.Discard, "", 0),
		Listen: srv.Listen, EntryEvery: 20 * time.Millisecond})
	defer w.Stop()
	w.Start()
	first := onlyEntry(t, reg)
	if err := reg.Remove(os.Getpid()); err != nil {
		t.Fatal(err)
	}
	testfix.Wait(t, 30*time.Second, "the removed entry is written again", func() bool { return reg.Has(os.Getpid()) })
	if again := onlyEntry(t, reg); again.Port != first.Port || again.Token != first.Token || !registry.Answers(again, registry.ProbeTimeout) {
		t.Fatalf("rewritten entry %+v, want %+v", again, first)
	}
}

// onlyEntry is the registry's one entry, the test process's.
func onlyEntry(t *testing.T, reg *registry.Registry) registry.Entry {
	t.Helper()
	entries, err := reg.Reap()
	if err != nil || len(entries) != 1 || entries[0].PID != os.Getpid() {
		t.Fatalf("entries %+v, %v", entries, err)
	}
	return entries[0]
}

// testProject is a small Go module in a temp folder.
func testProject(tb testing.TB) string {
	tb.Helper()
	return testfix.Project(tb, map[string]string{
		"go.mod":      "module example.com/e2e\n\ngo 1.22\n",
		"main.go":     "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello from e2e\")\n}\n",
		"pkg/calc.go": "package pkg\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n",
	})
}

// TestSwitchTurnsTheListenerOnAndOff: the listener follows the switch the
// window is made with (its Agents menu), to the person's latest wish, with
// a registry entry that answers while on and none while off.
func TestSwitchTurnsTheListenerOnAndOff(t *testing.T) {
	proj, err := project.Open(testProject(t))
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New(filepath.Join(t.TempDir(), "mcp"))
	srv := mcpbridge.NewServer(agent.New(agent.Config{Project: proj}), mcpbridge.Options{Version: "test", Logger: log.New(io.Discard, "", 0)})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sw := NewSwitch()
	sw.Set(true) // a wish before the listener exists is followed once it does
	w := New(ctx, Config{Dir: proj.Root, Version: "test", Status: &recordedStatus{}, Registry: reg, Logger: log.New(io.Discard, "", 0),
		Listen: srv.Listen, Switch: sw})
	defer w.Stop()
	testfix.Wait(t, 30*time.Second, "the listener on", func() bool { return reg.Has(os.Getpid()) })
	if e := onlyEntry(t, reg); !registry.Answers(e, registry.ProbeTimeout) {
		t.Fatalf("the entry %+v does not answer", e)
	}
	sw.Set(false)
	testfix.Wait(t, 30*time.Second, "the listener off", func() bool { return !reg.Has(os.Getpid()) })
	for range 5 { // the person clicks on and off quickly: the last click counts
		sw.Set(true)
		sw.Set(false)
	}
	sw.Set(true)
	testfix.Wait(t, 30*time.Second, "the listener on after the clicks", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.on && w.l != nil && len(sw.wish) == 0
	})
	if e := onlyEntry(t, reg); !registry.Answers(e, registry.ProbeTimeout) {
		t.Fatalf("the entry %+v does not answer", e)
	}
}
