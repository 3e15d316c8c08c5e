package mcpbridge

import (
	"bytes"
	"context"
	"errors"
	"io"
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

func TestAttachReportsWindowGone(t *testing.T) {
	l := startListener(t)
	stdinR, stdinW := io.Pipe() // stdin stays open: the client is still there
	defer stdinW.Close()
	errc := make(chan error, 1)
	go func() { errc <- Attach(context.Background(), l.Addr(), l.token, stdinR, io.Discard) }()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	l.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrWindowGone) {
			t.Fatalf("err = %v, want ErrWindowGone", err)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("noticed after %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Attach did not return after the window closed")
	}
}

func TestAttachWrongTokenIsRefused(t *testing.T) {
	l := startListener(t)
	stdinR, stdinW := io.Pipe()
	defer stdinW.Close()
	var out bytes.Buffer
	err := Attach(context.Background(), l.Addr(), strings.Repeat("ab", 32), stdinR, &out)
	// The window cannot prove a token it does not hold, so the bridge
	// never sends it (another window's token, say).
	if !errors.Is(err, registry.ErrNotTrestle) || out.Len() != 0 {
		t.Fatalf("err %v, out %q", err, out.String())
	}
}
