package mcpbridge

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// What a session can make the window hold, and backpressure instead of
// refusal: each test sends what an agent (or an attacker with the token)
// sent, and checks the answers on the wire and the window's live heap.

// heapWatch samples the process's live heap (as the last GC marked it)
// every millisecond, so a test can bound what an attack made the window
// hold at its worst. Garbage not yet collected is not counted: the GC
// keeps the whole heap within twice the live heap (GOGC=100), so the
// process's heap stays under twice what a test bounds.
type heapWatch struct {
	base         uint64 // live heap after a GC, before the attack
	baseRetained uint64 // heap memory the process held from the system then
	peak         atomic.Uint64
	stop         chan struct{}
	done         chan struct{}
}

const heapLive = "/gc/heap/live:bytes"

func watchHeap(t *testing.T) *heapWatch {
	t.Helper()
	h := &heapWatch{base: liveHeap(), stop: make(chan struct{}), done: make(chan struct{})}
	debug.FreeOSMemory()
	h.baseRetained = retainedHeap()
	go func() {
		defer close(h.done)
		sample := []metrics.Sample{{Name: heapLive}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > h.peak.Load() {
				h.peak.Store(v)
			}
		}
	}()
	t.Cleanup(h.end)
	return h
}

func (h *heapWatch) end() {
	select {
	case <-h.stop:
	default:
		close(h.stop)
	}
	<-h.done
}

// grown is how far the sampled heap rose above the base, in MiB.
func (h *heapWatch) grown() int64 { return (int64(h.peak.Load()) - int64(h.base)) >> 20 }

// retainedHeap is the heap memory the process holds from the operating
// system (mapped and not released): what its RSS shows of the heap.
func retainedHeap() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapSys - ms.HeapReleased
}

// liveHeap collects garbage and returns the live heap.
func liveHeap() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: heapLive}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// TestPipelinedCallsWaitTheirTurn pipelines 100 calls that all block:
// every one is answered once they are let go, none is refused (the 65th
// was refused with "this session already has 64 requests"), and the
// session stopped reading while its bound was reached.
func TestPipelinedCallsWaitTheirTurn(t *testing.T) {
	b := newBlocker()
	l := startListenerWith(t, b, nil)
	rc := dialAuth(t, l)
	rc.initialize("pipeliner")
	rc.c.SetDeadline(time.Now().Add(2 * time.Minute))
	const n = 100
	go func() {
		w := bufio.NewWriter(rc.c)
		for i := range n {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_block","arguments":{"tag":"c%d"}}}`+"\n", i, i)
		}
		w.Flush()
	}()
	for range inFlight {
		<-b.started
	}
	rd := readAll(rc)
	// While every turn is held, the session holds what it may and waits:
	// nothing is answered yet (a refusal would be).
	sess := l.session(t, "conn-1")
	waitFor(t, 30*time.Second, "the session stops reading at its bound", func() bool { return sess.budget.pausedNow() })
	if got := rd.snapshot(); len(got) != 0 {
		t.Fatalf("answered before any call was let go: %v", got[0])
	}
	close(b.release)
	waitFor(t, 60*time.Second, "every call is answered", func() bool { return len(rd.snapshot()) >= n })
	ids := map[float64]bool{}
	for _, m := range rd.snapshot() {
		if _, msg := errorOf(m); msg != "" || m["result"] == nil {
			t.Fatalf("not an answer: %v", m)
		}
		ids[m["id"].(float64)] = true
	}
	if len(ids) != n {
		t.Fatalf("%d distinct ids answered, want %d", len(ids), n)
	}
	if calls, _ := sess.budget.peaks(); calls > maxCalls {
		t.Fatalf("the session held %d calls at once, over its bound of %d", calls, maxCalls)
	}
}

// TestArgumentShapeIsCheckedBeforeDecoding sends four calls whose 8 MB
// argument is `[{},{},...]`: mcp-go decoded each into 2.8 million maps
// before the schema refused it (four took the window from 1.8 to 6.6 GB).
// Each is answered with the shape's problem, and the heap never rose by
// more than 256 MiB.
func TestArgumentShapeIsCheckedBeforeDecoding(t *testing.T) {
	l := startListener(t)
	rc := dialAuth(t, l)
	rc.initialize("amplifier")
	rc.c.SetDeadline(time.Now().Add(2 * time.Minute))
	arg := "[" + strings.Repeat("{},", 8<<20/3) + "{}]"
	h := watchHeap(t)
	rd := readAll(rc)
	const calls = 4
	for i := range calls {
		rc.sendf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"trestle_read","arguments":{"path":%s}}}`, i, arg)
	}
	waitFor(t, 90*time.Second, "every call is answered", func() bool { return len(rd.snapshot()) >= calls })
	h.end()
	t.Logf("heap rose by %d MiB at most", h.grown())
	if g := h.grown(); g > 256 {
		t.Fatalf("the heap rose by %d MiB for %d calls of %d MB, over the 256 MiB ceiling", g, calls, len(arg)>>20)
	}
	for _, m := range rd.snapshot() {
		if _, msg := errorOf(m); !strings.Contains(msg, "JSON values") {
			t.Fatalf("want the shape named: %v", m)
		}
	}
}

// TestNeverReadAnswersAreBounded is the pending-reads attack: six sessions
// each pipeline 64 trestle_read calls of a 7 MiB file and never read an
// answer (293 MB became 4.2 GB, and stayed 4.3 GB after the sessions were
// dropped). Each session now stops at 16 MiB of unwritten answers plus the
// four it is making: about 45 MB each while it is made (the file, the
// text, mcp-go's encoding of the result and ours of the response) and 15
// MB once made, so six sessions hold at most about 1.4 GB and the live
// heap stays under a 1.5 GiB ceiling (1.1 to 1.3 GiB measured) until the
// write bound drops them. Once they are gone the window gives the memory
// back to the system within seconds, with no help: the heap it holds comes
// back within 64 MiB of where it was.
func TestNeverReadAnswersAreBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory makes the heap bound meaningless")
	}
	const sessions, calls, ceilingMiB = 6, 64, 1536
	l := startListenerWith(t, nil, func(l *Listener) { l.writeTimeout = 3 * time.Second })
	big := strings.Repeat("a line of a seven megabyte file that the client never reads back\n", 7<<20/66)
	if err := os.WriteFile(filepath.Join(l.root, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	conns := make([]*rawConn, sessions)
	for i := range conns {
		conns[i] = dialAuth(t, l)
		conns[i].initialize(fmt.Sprint("deaf-", i))
		conns[i].c.(*net.TCPConn).SetReadBuffer(4 << 10)
	}
	h := watchHeap(t)
	start := time.Now()
	var wg sync.WaitGroup
	for _, rc := range conns {
		wg.Go(func() {
			rc.c.SetWriteDeadline(time.Now().Add(time.Minute))
			for i := range calls {
				if _, err := fmt.Fprintf(rc.c, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"trestle_read","arguments":{"path":"big.txt"}}}`+"\n", i); err != nil {
					return
				}
			}
		})
	}
	over := func() bool { return h.grown() > ceilingMiB }
	waitFor(t, 2*time.Minute, "every deaf session is dropped (or the heap passes the ceiling)", func() bool {
		clients, connecting := l.places()
		return len(clients)+connecting == 0 || over()
	})
	t.Logf("dropped after %v", time.Since(start))
	for _, rc := range conns {
		rc.c.Close()
	}
	wg.Wait()
	h.end()
	t.Logf("heap rose by %d MiB at most", h.grown())
	if over() {
		t.Fatalf("the heap rose by %d MiB, over the %d MiB ceiling", h.grown(), ceilingMiB)
	}
	waitFor(t, time.Minute, "the sessions are gone", func() bool { clients, connecting := l.places(); return len(clients)+connecting == 0 })
	// Without a collection from here: the window gives it back by itself.
	waitFor(t, 20*time.Second, "the window gives the memory back", func() bool {
		return (int64(retainedHeap())-int64(h.baseRetained))>>20 < 64
	})
}

// TestPacedFloodDoesNotBlockAttaches runs a paced flood of 64 silent
// connections: 64 attackers each hold one open without a word and open the
// next 5 ms after the window closes it. Every handshake slot the window's
// bound freed was taken again at once, and a real bridge, refused as busy,
// retried in vain until it gave up. Now the oldest silent connection gives
// way to the new one, and every attach made during the flood is served.
func TestPacedFloodDoesNotBlockAttaches(t *testing.T) {
	l := startListener(t)
	flood(t, l.Addr(), func(c net.Conn, _ <-chan struct{}) { io.Copy(io.Discard, c) }) // until the window closes it
	waitFor(t, 30*time.Second, "the flood holds every handshake slot", func() bool { return len(l.pending) == maxPending })
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"through-the-flood","version":"1"}}}` + "\n"
	for i := range 5 {
		var out strings.Builder
		if err := Attach(context.Background(), l.Addr(), l.token, strings.NewReader(in), &out); err != nil || !strings.Contains(out.String(), `"id":1,"result"`) {
			t.Fatalf("attach %d during the flood: %v, %q", i, err, out.String())
		}
	}
}
