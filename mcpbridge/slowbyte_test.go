package mcpbridge

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/registry"
)

// trickle writes a never-ending first line to c, one byte per 20 ms, as a
// slow-byte (slowloris) attacker does, until a write fails or stop closes.
func trickle(c net.Conn, stop <-chan struct{}) {
	const line = `{"trestle_token":"`
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-time.After(20 * time.Millisecond):
		}
		b := byte('0')
		if i < len(line) {
			b = line[i]
		}
		c.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := c.Write([]byte{b}); err != nil {
			return
		}
	}
}

// TestSlowByteFloodDoesNotBlockAttaches is issue 20's slow-byte flood: 64
// connections that each trickle a byte of a first line every 20 ms, and
// reconnect when closed, held every handshake slot for the whole 5 s
// handshake bound (a connection that had sent a byte never gave way), so
// a real client was refused as busy for as long as the flood went on. A
// connection that has not finished a line for a while now gives way to a
// new one as a silent one does; the handshake bound here is long, so only
// that can free a slot.
func TestSlowByteFloodDoesNotBlockAttaches(t *testing.T) {
	l := startListenerWith(t, nil, func(l *Listener) { l.handshakeTimeout = 2 * time.Minute })
	flood(t, l.Addr(), trickle)
	waitFor(t, 30*time.Second, "the trickling flood holds every handshake slot, each for a while and with bytes sent", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(l.waiting) < maxPending {
			return false
		}
		for _, w := range l.waiting {
			if !w.spoke.Load() || time.Since(w.since) < 2*stallAge {
				return false
			}
		}
		return true
	})

	rc := dial(t, l.Addr())
	rc.sendf(`{"trestle_token":%q}`, l.token)
	line, err := rc.r.ReadBytes('\n')
	var w registry.Welcome
	if err != nil || json.Unmarshal(line, &w) != nil || w.State != registry.WelcomeReady {
		t.Fatalf("a client with the token during a slow-byte flood got %q (%v), want a welcome", line, err)
	}
	rc.initialize("through-the-trickle")
	rc.sendf(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if m := rc.recv(); m["id"] != "p" {
		t.Fatalf("ping: %v", m)
	}
	if l.evicted.Load() == 0 {
		t.Fatal("no trickling connection gave way")
	}
	// The bridge's path (hello, proof, token), several times over.
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bridge-through-the-trickle","version":"1"}}}` + "\n"
	for i := range 3 {
		var out strings.Builder
		if err := Attach(context.Background(), l.Addr(), l.token, strings.NewReader(in), &out); err != nil || !strings.Contains(out.String(), `"id":1,"result"`) {
			t.Fatalf("attach %d during the slow-byte flood: %v, %q", i, err, out.String())
		}
	}
}

// flood keeps maxPending connections to addr open until the test ends,
// each held by hold until the window closes it or stop is closed, and
// dialled again at once when it closes.
func flood(t *testing.T, addr string, hold func(c net.Conn, stop <-chan struct{})) {
	stop := make(chan struct{})
	var mu sync.Mutex
	open := map[net.Conn]bool{}
	var attackers sync.WaitGroup
	for range maxPending {
		attackers.Go(func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
				c, err := net.Dial("tcp", addr)
				if err != nil {
					continue
				}
				mu.Lock()
				open[c] = true
				mu.Unlock()
				hold(c, stop)
				mu.Lock()
				delete(open, c)
				mu.Unlock()
				c.Close()
			}
		})
	}
	t.Cleanup(func() {
		close(stop)
		mu.Lock()
		for c := range open {
			c.Close()
		}
		mu.Unlock()
		attackers.Wait()
	})
}
