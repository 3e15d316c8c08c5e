package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"trestle/registry"
)

func TestAttachCopiesBothWaysAndWaitsForReplies(t *testing.T) {
	l := startListener(t)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bridge-test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_progress","arguments":{"n":0,"sleep_ms":200}}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := Attach(ctx, l.Addr(), l.token, strings.NewReader(in), &out); err != nil {
		t.Fatalf("Attach: %v", err)
	}
	// Requests are served concurrently, so replies may come in either order.
	replies := strings.Split(strings.TrimSpace(out.String()), "\n")
	joined := strings.Join(replies, "\n")
	if len(replies) != 2 || !strings.Contains(joined, `"id":1,"result"`) || !strings.Contains(joined, `"id":2,"result"`) {
		t.Fatalf("replies: %q", replies)
	}
}

// attachInit is an MCP client's initialize line.
const attachInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bridge-test","version":"1"}}}` + "\n"

// pipedAttach runs Attach to l over pipes and returns the client's stdin,
// its stdout lines and Attach's result.
func pipedAttach(t *testing.T, l testListener, token string) (io.WriteCloser, <-chan string, <-chan error) {
	t.Helper()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	t.Cleanup(func() { stdinW.Close(); stdoutR.Close() })
	errc := make(chan error, 1)
	go func() { errc <- Attach(context.Background(), l.Addr(), token, stdinR, stdoutW); stdoutW.Close() }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdoutR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return stdinW, lines, errc
}

// send writes line to the client's stdin without blocking the test: a
// bridge that has given up reads no more of it.
func send(w io.Writer, line string) { go io.WriteString(w, line) }

// TestAttachWaitsForTheClientsFirstLine: an MCP client that starts the
// bridge and says nothing for longer than the window's initialize bound,
// then initializes, is served. The bridge used to connect and give the
// token at once, so the window closed it after the bound and the late
// initialize met "the window went away".
func TestAttachWaitsForTheClientsFirstLine(t *testing.T) {
	const bound = 300 * time.Millisecond
	l := startListenerWith(t, nil, func(l *Listener) { l.initializeTimeout = bound })
	stdin, lines, errc := pipedAttach(t, l, l.token)
	// The client idles past the bound: that is the behaviour under test,
	// not a wait for something to happen.
	time.Sleep(3 * bound)
	if clients, connecting := l.places(); len(clients)+connecting != 0 {
		t.Fatalf("the bridge holds a place before the client said anything: %d attached, %d connecting", len(clients), connecting)
	}
	send(stdin, attachInit)
	select {
	case line := <-lines:
		if !strings.Contains(line, `"id":1,"result"`) {
			t.Fatalf("initialize after %v idle: %q", 3*bound, line)
		}
	case err := <-errc:
		t.Fatalf("initialize after %v idle: Attach returned %v", 3*bound, err)
	case <-time.After(30 * time.Second):
		t.Fatal("no answer to the initialize")
	}
	stdin.Close()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("Attach after stdin ended: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Attach did not return after stdin ended")
	}
}

// TestAttachWithoutInputConnectsToNothing: stdin that ends before any byte
// ends the bridge without a connection (no place taken, nothing sent).
func TestAttachWithoutInputConnectsToNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{})
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			close(accepted)
		}
	}()
	if err := Attach(context.Background(), ln.Addr().String(), strings.Repeat("ab", 32), strings.NewReader(""), io.Discard); err != nil {
		t.Fatalf("Attach with empty stdin: %v", err)
	}
	ln.Close()
	select {
	case <-accepted:
		t.Fatal("the bridge connected although the client sent nothing")
	default:
	}
}

func TestAttachReportsWindowGone(t *testing.T) {
	l := startListener(t)
	stdin, lines, errc := pipedAttach(t, l, l.token) // stdin stays open: the client is still there
	send(stdin, attachInit)
	select {
	case line := <-lines:
		if !strings.Contains(line, `"id":1,"result"`) {
			t.Fatalf("initialize: %q", line)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no answer to the initialize")
	}
	l.Close()
	// With the client still there (stdin open), only the window's closing
	// ends Attach, and it says so: ErrWindowGone, not one of Attach's own
	// timeouts. How fast is not asserted (a loaded machine decides).
	select {
	case err := <-errc:
		if !errors.Is(err, ErrWindowGone) {
			t.Fatalf("err = %v, want ErrWindowGone", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Attach did not return after the window closed")
	}
}

func TestAttachWrongTokenIsRefused(t *testing.T) {
	l := startListener(t)
	stdin, lines, errc := pipedAttach(t, l, strings.Repeat("ab", 32))
	send(stdin, attachInit)
	// The window cannot prove a token it does not hold, so the bridge
	// never sends it (another window's token, say).
	select {
	case err := <-errc:
		if !errors.Is(err, registry.ErrNotTrestle) {
			t.Fatalf("err %v, want ErrNotTrestle", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Attach with a wrong token did not return")
	}
	if line, ok := <-lines; ok {
		t.Fatalf("stdout got %q", line)
	}
}
