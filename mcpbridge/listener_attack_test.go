package mcpbridge

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/services"
	"trestle/app/workbench"
	"trestle/registry"
)

// Attacks on the listener from outside: floods, silent token holders,
// request floods within a session, and the protocol corners (cancellation,
// batches) that clients nobody here wrote rely on. Each test failed on the
// listener before the fix it names.

// blocker is a tool that holds its turn until released (or cancelled), so
// a test can keep a session's requests queued.
type blocker struct {
	started chan string   // the id of each call that starts running
	release chan struct{} // closed to let every call finish
	ran     atomic.Int64  // calls that ran
	ended   chan string   // the id of each call that has returned
}

func newBlocker() *blocker {
	return &blocker{started: make(chan string, 4096), release: make(chan struct{}), ended: make(chan string, 4096)}
}

func (b *blocker) tool() server.ServerTool {
	tool := mcp.NewTool("test_block", mcp.WithString("tag"), mcp.WithString("pad"))
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		tag := req.GetString("tag", "")
		b.ran.Add(1)
		b.started <- tag
		defer func() { b.ended <- tag }()
		select {
		case <-b.release:
			return mcp.NewToolResultText("released " + tag), nil
		case <-ctx.Done():
			return mcp.NewToolResultError("cancelled " + tag), nil
		}
	}}
}

// startListenerWith starts a listener serving the test tools and blocker,
// configured by setup before it serves.
func startListenerWith(t testing.TB, b *blocker, setup func(*Listener)) testListener {
	t.Helper()
	project := newTestProject(t)
	srv := NewServer(testAgent(project, nil, services.Services{}), quiet())
	srv.MCP().AddTools(progressTool())
	if b != nil {
		srv.MCP().AddTools(b.tool())
	}
	tl := serveListener(t, srv, setup)
	if b != nil {
		t.Cleanup(func() { // before the serve's cleanup (they run last first): free blocked calls
			select {
			case <-b.release:
			default:
				close(b.release)
			}
		})
	}
	return tl
}

// session is the listener's session id.
func (l *Listener) session(t testing.TB, id string) *session {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.sessions[id]
	if !ok {
		t.Fatalf("no session %s", id)
	}
	return s
}

// TestListenerCapsUnauthenticatedConnections holds maxPending connections
// that start a first line and never end it (stalled ones give way to a new
// connection, see TestPacedFloodDoesNotBlockAttaches and
// TestSlowByteFloodDoesNotBlockAttaches; here they never stall): the next
// is refused at once with a line that says why (it used to wait for its
// handshake bound, and a flood of them exhausted the window's
// descriptors), and once the flood ends a client with the token is served.
func TestListenerCapsUnauthenticatedConnections(t *testing.T) {
	l := startListenerWith(t, nil, func(l *Listener) { l.stallAge = time.Hour })
	flood := make([]net.Conn, 0, maxPending)
	for range maxPending {
		c, err := net.Dial("tcp", l.Addr())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(c, `{"trestle_tok`); err != nil {
			t.Fatal(err)
		}
		flood = append(flood, c)
	}
	defer func() {
		for _, c := range flood {
			c.Close()
		}
	}()
	waitFor(t, 10*time.Second, "the unfinished first lines hold every pending slot", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		spoke := 0
		for _, w := range l.waiting {
			if w.spoke.Load() {
				spoke++
			}
		}
		return spoke == maxPending
	})
	start := time.Now()
	rc := dial(t, l.Addr())
	rc.c.SetDeadline(time.Now().Add(defaultHandshakeTimeout - time.Second)) // before the handshake bound would answer
	m := rc.recv()
	if code, msg := errorOf(m); code != registry.CodeBusy || !strings.Contains(msg, "waiting to give their token") {
		t.Fatalf("over the cap: %v", m)
	}
	rc.expectEOF()
	t.Logf("refused over the cap after %v", time.Since(start))
	if l.refusedPending.Load() == 0 {
		t.Fatal("refusedPending did not count the refusal")
	}
	// A bridge that comes during the flood is refused as busy, tries again,
	// and attaches once the flood is gone; the probe does not take the busy
	// window for a dead one.
	if !registry.Answers(registry.Entry{Port: l.Port(), Token: l.token}, registry.ProbeTimeout) {
		t.Fatal("the probe took a busy window for no window")
	}
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"patient","version":"1"}}}` + "\n"
	var out strings.Builder
	attached := make(chan error, 1)
	go func() { attached <- Attach(context.Background(), l.Addr(), l.token, strings.NewReader(in), &out) }()
	waitFor(t, 10*time.Second, "the bridge is refused as busy", func() bool { return l.refusedPending.Load() >= 3 })
	for _, c := range flood {
		c.Close()
	}
	select {
	case err := <-attached:
		if err != nil || !strings.Contains(out.String(), `"id":1,"result"`) {
			t.Fatalf("the bridge after the flood: %v, %q", err, out.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the bridge did not attach after the flood")
	}
	waitFor(t, 10*time.Second, "the flood's slots are freed", func() bool { return len(l.pending) == 0 })
	ok := dialAuth(t, l)
	ok.initialize("after-the-flood")
}

// TestListenerClosesSilentTokenHolders fills every place with connections
// that give the token and then say nothing: the status counts them as
// connecting (it said "0 agents attached"), they are closed after the
// initialize bound, and then a real client gets a place.
func TestListenerClosesSilentTokenHolders(t *testing.T) {
	const bound = 700 * time.Millisecond
	var mu sync.Mutex
	var lastClients, lastConnecting int
	l := startListenerWith(t, nil, func(l *Listener) {
		l.initializeTimeout = bound
		l.OnClients = func(c []workbench.Client, connecting int) {
			mu.Lock()
			lastClients, lastConnecting = len(c), connecting
			mu.Unlock()
		}
	})
	holders := make([]*rawConn, MaxClients)
	start := time.Now()
	for i := range holders {
		holders[i] = dialAuth(t, l)
	}
	if clients, connecting := l.places(); len(clients) != 0 || connecting != MaxClients {
		t.Fatalf("places: %d clients, %d connecting; want 0 and %d", len(clients), connecting, MaxClients)
	}
	mu.Lock()
	if lastClients != 0 || lastConnecting != MaxClients {
		t.Fatalf("OnClients last said %d attached, %d connecting", lastClients, lastConnecting)
	}
	mu.Unlock()
	for _, h := range holders {
		h.expectEOF()
	}
	if took := time.Since(start); took < bound-50*time.Millisecond {
		t.Fatalf("silent holders closed after %v, before the %v bound", took, bound)
	}
	waitFor(t, 10*time.Second, "the places are freed", func() bool { _, n := l.places(); return n == 0 })
	mu.Lock()
	if lastConnecting != 0 {
		t.Fatalf("OnClients still says %d connecting", lastConnecting)
	}
	mu.Unlock()
	rc := dialAuth(t, l)
	rc.initialize("real-agent")
	rc.sendf(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if m := rc.recv(); m["id"] != "p" {
		t.Fatalf("ping: %v", m)
	}
	waitFor(t, 10*time.Second, "the initialized client stays past the bound", func() bool { return time.Since(start) > 2*bound })
	rc.sendf(`{"jsonrpc":"2.0","id":"p2","method":"ping"}`)
	if m := rc.recv(); m["id"] != "p2" {
		t.Fatalf("ping after the bound: %v", m)
	}
	if clients := l.Clients(); len(clients) != 1 || clients[0].Name != "real-agent" {
		t.Fatalf("clients: %+v", clients)
	}
}

// reader collects every line a connection receives until it ends.
type reader struct {
	mu    sync.Mutex
	lines []map[string]any
	done  chan struct{}
}

func readAll(rc *rawConn) *reader {
	rd := &reader{done: make(chan struct{})}
	go func() {
		defer close(rd.done)
		for {
			line, err := rc.r.ReadBytes('\n')
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(line, &m) != nil {
				var batch []map[string]any
				json.Unmarshal(line, &batch)
				m = map[string]any{"batch": batch}
			}
			rd.mu.Lock()
			rd.lines = append(rd.lines, m)
			rd.mu.Unlock()
		}
	}()
	return rd
}

func (rd *reader) snapshot() []map[string]any {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return append([]map[string]any(nil), rd.lines...)
}

// TestSessionBoundsQueuedRequests holds every running turn with blocking
// calls, then pipelines one-megabyte requests: the session reads them
// until it holds its byte bound and then stops reading (they were refused,
// and before that each line was copied and given a goroutine: RSS rose by
// 1.4 GB), holding never more than the bound and one line; once the turns
// are let go every request is answered, none refused. Closing the
// connection midway frees what the session held.
func TestSessionBoundsQueuedRequests(t *testing.T) {
	b := newBlocker()
	l := startListenerWith(t, b, nil)
	rc := dialAuth(t, l)
	rc.initialize("flooder")
	rd := readAll(rc)
	for i := range inFlight {
		rc.sendf(`{"jsonrpc":"2.0","id":"hold-%d","method":"tools/call","params":{"name":"test_block","arguments":{"tag":"hold-%d"}}}`, i, i)
	}
	for range inFlight {
		<-b.started
	}
	// 60 MiB: each request holds several decoded copies, so well over the
	// byte bound; more only makes the answers' wall time grow with the
	// machine's load (CI failed at 2 minutes with 200 MiB at load 20).
	n, size := 60, 1<<20
	rc.c.SetDeadline(time.Now().Add(10 * time.Minute)) // a hang fails below, on no progress
	pad := strings.Repeat("x", size)
	start := time.Now()
	go func() {
		w := bufio.NewWriterSize(rc.c, 1<<20)
		for i := range n {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_block","arguments":{"tag":"q%d","pad":"%s"}}}`+"\n", i, i, pad)
		}
		w.Flush()
	}()
	sess := l.session(t, "conn-1")
	waitFor(t, 60*time.Second, "the session stops reading at its byte bound", sess.budget.pausedNow)
	calls, held := sess.budget.now()
	bound := maxHeldBytes + lineCost(MaxLineBytes, maxLineValues)
	t.Logf("%d MiB pipelined: after %v the session holds %d requests, %d MiB, and reads no more", n*size>>20, time.Since(start), calls-inFlight, held>>20)
	if calls-inFlight >= n || held > bound {
		t.Fatalf("holding %d requests and %d bytes (bound %d)", calls, held, bound)
	}
	if got := rd.snapshot(); len(got) != 0 {
		t.Fatalf("answered while every turn was held: %v", got[0])
	}
	close(b.release)
	waitProgress(t, 2*time.Minute, n+inFlight, func() int { return len(rd.snapshot()) })
	for _, m := range rd.snapshot() {
		if _, msg := errorOf(m); msg != "" || m["result"] == nil {
			t.Fatalf("not an answer: %.300v", m)
		}
	}
	if _, peak := sess.budget.peaks(); peak > bound {
		t.Fatalf("peak %d bytes held, over %d", peak, bound)
	}

	// A second flood, cut off midway: closing frees everything it held.
	b2 := newBlocker()
	l2 := startListenerWith(t, b2, nil)
	rc2 := dialAuth(t, l2)
	rc2.initialize("cut-off")
	go func() {
		for i := range n {
			if _, err := fmt.Fprintf(rc2.c, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_block","arguments":{"tag":"q%d","pad":"%s"}}}`+"\n", i, i, pad); err != nil {
				return
			}
		}
	}()
	sess2 := l2.session(t, "conn-1")
	waitFor(t, 60*time.Second, "the second session stops reading", sess2.budget.pausedNow)
	rc2.c.Close()
	close(b2.release) // the holders answer into a closed connection, and the write failure ends the session
	waitFor(t, 60*time.Second, "closing frees the session and what it held", func() bool {
		clients, connecting := l2.places()
		calls, _ := sess2.budget.now()
		return len(clients)+connecting == 0 && calls == 0
	})
}

// TestSessionDropsAClientThatNeverReads sends requests with large answers
// and never reads them: the write bound drops the client, and its session
// ends (a client that never read pushed the window up by 1.5 GB in 10 s).
func TestSessionDropsAClientThatNeverReads(t *testing.T) {
	l := startListenerWith(t, nil, func(l *Listener) { l.writeTimeout = 500 * time.Millisecond })
	big := strings.Repeat("a line of a big file that the deaf client asks for again and again\n", 4000) // ~270 KB
	if err := os.WriteFile(filepath.Join(l.root, "big.txt"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	rc := dialAuth(t, l)
	rc.initialize("deaf")
	rc.c.(*net.TCPConn).SetReadBuffer(4 << 10)
	rc.c.SetDeadline(time.Now().Add(3 * time.Minute))
	call := `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"trestle_read","arguments":{"path":"big.txt"}}}`
	go func() {
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(rc.c, call+"\n", i); err != nil {
				return
			}
		}
	}()
	waitFor(t, 2*time.Minute, "the deaf client is dropped", func() bool { clients, connecting := l.places(); return len(clients)+connecting == 0 })
}

// TestCancelledRequestGetsNoResponse cancels a running request and a
// queued one: neither is answered (both were), the queued one never runs,
// and the session answers what follows.
func TestCancelledRequestGetsNoResponse(t *testing.T) {
	b := newBlocker()
	l := startListenerWith(t, b, nil)
	rc := dialAuth(t, l)
	rc.initialize("canceller")
	rc.sendf(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"test_block","arguments":{"tag":"running"}}}`)
	if tag := <-b.started; tag != "running" {
		t.Fatalf("started %q", tag)
	}
	for i := 1; i < inFlight; i++ { // the other turns, so id 9 must wait
		rc.sendf(`{"jsonrpc":"2.0","id":"hold-%d","method":"tools/call","params":{"name":"test_block","arguments":{"tag":"hold"}}}`, i)
		<-b.started
	}
	rc.sendf(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"test_block","arguments":{"tag":"queued"}}}`)
	waitFor(t, 10*time.Second, "id 9 is queued", func() bool {
		calls, _ := l.session(t, "conn-1").budget.now()
		return calls == inFlight+1
	})
	// 9 first: cancelling 5 frees the turn 9 waits for.
	rc.sendf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`)
	rc.sendf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"user"}}`)
	if tag := <-b.ended; tag != "running" {
		t.Fatalf("ended %q", tag)
	}
	rc.sendf(`{"jsonrpc":"2.0","id":6,"method":"ping"}`)
	close(b.release)
	rc.c.(*net.TCPConn).CloseWrite() // the session answers everything before it ends
	ids := map[any]bool{}
	for {
		line, err := rc.r.ReadBytes('\n')
		if err != nil {
			break
		}
		var m map[string]any
		json.Unmarshal(line, &m)
		ids[m["id"]] = true
	}
	if ids[float64(5)] || ids[float64(9)] || !ids[float64(6)] {
		t.Fatalf("answered ids %v; want 6 and the holds, not 5 or 9", ids)
	}
	if n := b.ran.Load(); n != inFlight {
		t.Fatalf("%d calls ran; the cancelled queued one must not", n)
	}
}

// TestBatchesAndShapesGetPlainAnswers sends a batch to a session that
// negotiated 2025-03-26 (answered as a batch) and to one that negotiated
// 2025-06-18 (refused with -32600), and lines of the wrong shape: every
// error is words an agent can act on, never a Go type (it was -32700
// "cannot unmarshal array into Go value of type struct ...").
func TestBatchesAndShapesGetPlainAnswers(t *testing.T) {
	l := startListener(t)
	old := dialAuth(t, l)
	old.sendf(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	if m := old.recv(); m["result"].(map[string]any)["protocolVersion"] != "2025-03-26" {
		t.Fatalf("initialize 2025-03-26: %v", m)
	}
	old.sendf(`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"},{"jsonrpc":"2.0","id":3}]`)
	line, err := old.r.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var batch []map[string]any
	if err := json.Unmarshal(line, &batch); err != nil || len(batch) != 3 {
		t.Fatalf("want a batch of 3 answers, got %.300q", line)
	}
	if batch[0]["id"] != float64(1) || batch[0]["result"] == nil || batch[1]["id"] != float64(2) || batch[1]["result"] == nil {
		t.Fatalf("batch answers: %.300q", line)
	}
	if code, _ := errorOf(batch[2]); code != mcp.INVALID_REQUEST {
		t.Fatalf("a batch item without method: %v", batch[2])
	}

	cur := dialAuth(t, l)
	cur.initialize("current")
	tests := []struct {
		name, line string
		code       float64
		want       string
	}{
		{"batch after 2025-06-18", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, mcp.INVALID_REQUEST, "batches are part of MCP protocol version 2025-03-26 only"},
		{"a number", `5`, mcp.INVALID_REQUEST, "must be an object, not a number"},
		{"a string", `"ping"`, mcp.INVALID_REQUEST, "must be an object, not a string"},
		{"method as a number", `{"jsonrpc":"2.0","id":1,"method":5}`, mcp.INVALID_REQUEST, "method must be a string, not a number"},
		{"broken JSON", `{"jsonrpc":"2.0",`, mcp.PARSE_ERROR, "not valid JSON"},
		{"params as a number", `{"jsonrpc":"2.0","id":"shape","method":"tools/call","params":5}`, mcp.INVALID_REQUEST, "params must be an object, not a number"},
		{"tool name as a number", `{"jsonrpc":"2.0","id":"shape","method":"tools/call","params":{"name":5}}`, mcp.INVALID_REQUEST, "params.name must be a string, not a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur.sendf("%s", tt.line)
			m := cur.recv()
			code, msg := errorOf(m)
			if code != tt.code || !strings.Contains(msg, tt.want) {
				t.Fatalf("got %v %q, want %v %q", code, msg, tt.code, tt.want)
			}
			if strings.Contains(tt.line, `"id":"shape"`) && m["id"] != "shape" {
				t.Fatalf("the error lost the request's id: %v", m)
			}
			for _, goWord := range []string{"Go ", "struct", "interface", "unmarshal", "[]"} {
				if strings.Contains(msg, goWord) {
					t.Fatalf("message names Go's types (%q): %q", goWord, msg)
				}
			}
		})
	}
}

// TestRefusalEndsCleanlyWhileTheClientKeepsSending sends a bad first line
// and 256 KiB more the window never reads, then reads late, as a client on
// a loaded machine does: the refusal line, then a clean end of stream. The
// window used to close with those bytes unread, which resets the
// connection, and the client saw "connection reset by peer" after (or,
// reading later still, instead of) the refusal: the flake of
// TestAuthenticationBoundsSlowloris. Now it half-closes and drains first.
func TestRefusalEndsCleanlyWhileTheClientKeepsSending(t *testing.T) {
	l := startListener(t)
	for i := range 5 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			rc := dial(t, l.Addr())
			if _, err := io.WriteString(rc.c, "GET / HTTP/1.1\r\n"+strings.Repeat("j", 256<<10)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond) // read late: the old close had reset the connection by now
			m := rc.recv()
			if code, msg := errorOf(m); code != codeRefused || !strings.Contains(msg, "token line") {
				t.Fatalf("got %v", m)
			}
			if line, err := rc.r.ReadBytes('\n'); len(line) != 0 || err != io.EOF {
				t.Fatalf("after the refusal: %q, %v; want a clean EOF", line, err)
			}
		})
	}
}

// TestWelcomeNeedsTheProof runs the bridge's handshake against the real
// listener: the proof checks out for its token, and a probe takes no place.
func TestWelcomeNeedsTheProof(t *testing.T) {
	l := startListener(t)
	for range MaxClients + 2 { // probes never fill the window
		if !registry.Answers(registry.Entry{Port: l.Port(), Token: l.token}, registry.ProbeTimeout) {
			t.Fatal("the probe got no proof from the real listener")
		}
	}
	if registry.Answers(registry.Entry{Port: l.Port(), Token: strings.Repeat("ab", 32)}, registry.ProbeTimeout) {
		t.Fatal("a probe with another token believed the listener")
	}
	c, err := net.Dial("tcp", l.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w, err := registry.Greet(c, l.token, false, registry.ProbeTimeout)
	if err != nil || w.State != registry.WelcomeReady {
		t.Fatalf("greet: %+v %v", w, err)
	}
	waitFor(t, 10*time.Second, "probes leave no place held", func() bool { _, n := l.places(); return n == 1 })
}

// waitProgress waits until count reaches want, failing only when it has not
// grown for stall: on a loaded machine answering a flood takes time in
// proportion to the load, and a session that stopped answering stops growing.
func waitProgress(t *testing.T, stall time.Duration, want int, count func() int) {
	t.Helper()
	last, lastAt := count(), time.Now()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for got := last; got < want; got = count() {
		if got > last {
			last, lastAt = got, time.Now()
		}
		if time.Since(lastAt) > stall {
			t.Fatalf("%d of %d requests answered, and none more for %v", got, want, stall)
		}
		<-tick.C
	}
}
