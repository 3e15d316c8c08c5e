package mcpbridge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/project"
	"trestle/internal/testfix"
	"trestle/registry"
)

// newTestProject writes a small module and opens it.
func newTestProject(t testing.TB) *project.Project {
	t.Helper()
	p, err := project.Open(testfix.Project(t, map[string]string{
		"go.mod":          "module example.com/demo\n\ngo 1.22\n",
		"main.go":         "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"pkg/util.go":     "package pkg\n",
		".git/config":     "[core]\n",
		"docs/readme.txt": "one\ntwo\nthree\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// progressTool sends n progress notifications carrying the caller's token,
// then answers; it lets tests see whose notifications reach whom.
func progressTool() server.ServerTool {
	tool := mcp.NewTool("test_progress", mcp.WithNumber("n"), mcp.WithNumber("sleep_ms"))
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n := req.GetInt("n", 3)
		var token mcp.ProgressToken
		if req.Params.Meta != nil {
			token = req.Params.Meta.ProgressToken
		}
		srv := server.ServerFromContext(ctx)
		for i := 1; i <= n; i++ {
			err := srv.SendNotificationToClient(ctx, "notifications/progress",
				map[string]any{"progressToken": token, "progress": i, "total": n})
			if err != nil {
				return nil, err
			}
		}
		time.Sleep(time.Duration(req.GetInt("sleep_ms", 0)) * time.Millisecond)
		return mcp.NewToolResultText(fmt.Sprintf("sent %d", n)), nil
	}}
}

type testListener struct {
	*Listener
	token string
	root  string // the project it serves
}

func startListener(t testing.TB) testListener { return startListenerWith(t, nil, nil) }

// serveListener starts srv's listener with a new token, configured by
// setup (when set) before it serves, until the test ends.
func serveListener(t testing.TB, srv *Server, setup func(*Listener)) testListener {
	t.Helper()
	token, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	l, err := srv.Listen(token)
	if err != nil {
		t.Fatal(err)
	}
	if setup != nil {
		setup(l)
	}
	testfix.Serve(t, l.Serve)
	return testListener{l, token, srv.agent.Project().Root}
}

// rawConn is a client speaking JSON lines by hand.
type rawConn struct {
	t testing.TB
	c net.Conn
	r *bufio.Reader
}

func dial(t testing.TB, addr string) *rawConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(20 * time.Second))
	return &rawConn{t: t, c: c, r: bufio.NewReaderSize(c, 1<<20)}
}

// dialAuth connects with the token and reads the window's welcome.
func dialAuth(t testing.TB, l testListener) *rawConn {
	t.Helper()
	rc, w := dialWelcome(t, l)
	if w.State != registry.WelcomeReady {
		t.Fatalf("welcome %+v, want ready", w)
	}
	return rc
}

// dialWelcome connects, sends the token line and returns the welcome.
func dialWelcome(t testing.TB, l testListener) (*rawConn, registry.Welcome) {
	t.Helper()
	rc := dial(t, l.Addr())
	rc.sendf(`{"trestle_token":%q}`, l.token)
	line, err := rc.r.ReadBytes('\n')
	if err != nil {
		t.Fatalf("read the welcome: %v (got %q)", err, line)
	}
	var w registry.Welcome
	if err := json.Unmarshal(line, &w); err != nil || w.State == "" {
		t.Fatalf("not a welcome: %q", line)
	}
	return rc, w
}

func (rc *rawConn) sendf(format string, args ...any) {
	rc.t.Helper()
	if _, err := fmt.Fprintf(rc.c, format+"\n", args...); err != nil {
		rc.t.Fatal(err)
	}
}

// recv reads one message; it fails the test at EOF.
func (rc *rawConn) recv() map[string]any {
	rc.t.Helper()
	line, err := rc.r.ReadBytes('\n')
	if err != nil {
		rc.t.Fatalf("read: %v (got %q)", err, line)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		rc.t.Fatalf("not JSON: %q", line)
	}
	return m
}

// expectEOF reads the end of the stream: EOF, or a reset, which TCP may
// honestly deliver after the last line when the peer closes with bytes of
// ours unread. More data or a timeout fails.
func (rc *rawConn) expectEOF() {
	rc.t.Helper()
	line, err := rc.r.ReadBytes('\n')
	if len(line) == 0 && (err == io.EOF || errors.Is(err, syscall.ECONNRESET)) {
		return
	}
	rc.t.Fatalf("want the end of the stream, got %q, %v", line, err)
}

func (rc *rawConn) initialize(name string) {
	rc.t.Helper()
	rc.sendf(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":%q,"version":"1"}}}`, name)
	if m := rc.recv(); m["id"] != "init" || m["result"] == nil {
		rc.t.Fatalf("initialize: %v", m)
	}
	rc.sendf(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func errorOf(m map[string]any) (code float64, msg string) {
	e, _ := m["error"].(map[string]any)
	code, _ = e["code"].(float64)
	msg, _ = e["message"].(string)
	return code, msg
}

func TestListenerRefusesWithoutToken(t *testing.T) {
	l := startListener(t)
	tests := []struct {
		name, first string
		want        string
	}{
		{"no token", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, "token line"},
		{"wrong token", `{"trestle_token":"` + strings.Repeat("0", 64) + `"}`, "wrong token"},
		{"empty token", `{"trestle_token":""}`, "token line"},
		{"http request", "POST / HTTP/1.1", "token line"},
		{"not json", "hello", "token line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := dial(t, l.Addr())
			rc.sendf("%s", tt.first)
			m := rc.recv()
			code, msg := errorOf(m)
			if code != codeRefused || !strings.HasPrefix(msg, "refused:") || !strings.Contains(msg, tt.want) {
				t.Fatalf("got %v, want a refused error mentioning %q", m, tt.want)
			}
			rc.expectEOF()
		})
	}
}

func TestListenerServesToolsAfterToken(t *testing.T) {
	l := startListener(t)
	rc := dialAuth(t, l)
	rc.initialize("tester")
	rc.sendf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trestle_read","arguments":{"path":"docs/readme.txt","start_line":2,"end_line":2}}}`)
	m := rc.recv()
	res := m["result"].(map[string]any)
	text := res["content"].([]any)[0].(map[string]any)["text"]
	if res["isError"] == true || !strings.HasPrefix(fmt.Sprint(text), "docs/readme.txt lines 2-2 of 3, sha256 ") ||
		!strings.HasSuffix(fmt.Sprint(text), ":\ntwo\n") {
		t.Fatalf("read result: %v", res)
	}
	if got := l.Clients(); len(got) != 1 || got[0].Name != "tester" {
		t.Fatalf("clients: %+v", got)
	}
}

func TestListenerNotificationsStayWithTheirSession(t *testing.T) {
	l := startListener(t)
	const clients, n = 4, 20
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i := range clients {
		rc := dialAuth(t, l)
		rc.initialize(fmt.Sprintf("client-%d", i))
		wg.Go(func() {
			token := fmt.Sprintf("tok-%d", i)
			rc.sendf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"test_progress","arguments":{"n":%d},"_meta":{"progressToken":%q}}}`, n, token)
			seen := 0
			for {
				m := rc.recv()
				if m["id"] == float64(7) {
					if seen != n {
						errs <- fmt.Errorf("%s: response after %d of %d notifications", token, seen, n)
					}
					return
				}
				p := m["params"].(map[string]any)
				if p["progressToken"] != token || p["progress"] != float64(seen+1) {
					errs <- fmt.Errorf("%s got notification %v after %d", token, p, seen)
					return
				}
				seen++
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestListenerSurvivesBadLines(t *testing.T) {
	l := startListener(t)
	tests := []struct {
		name     string
		line     string
		wantCode float64
	}{
		{"malformed", `{"jsonrpc":"2.0","id":`, mcp.PARSE_ERROR},
		{"no method", `{"jsonrpc":"2.0","id":3}`, mcp.INVALID_REQUEST},
		{"over 16 MiB", `{"jsonrpc":"2.0","id":4,"method":"ping","params":{"pad":"` + strings.Repeat("x", MaxLineBytes) + `"}}`, mcp.INVALID_REQUEST},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := dialAuth(t, l)
			rc.initialize("tester")
			rc.sendf("%s", tt.line)
			if code, msg := errorOf(rc.recv()); code != tt.wantCode || msg == "" {
				t.Fatalf("code %v %q, want %v", code, msg, tt.wantCode)
			}
			rc.sendf(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
			if m := rc.recv(); m["id"] != "after" || m["result"] == nil {
				t.Fatalf("session did not go on: %v", m)
			}
		})
	}
}

func TestListenerAnswersBeforeClosingOnHalfClose(t *testing.T) {
	l := startListener(t)
	rc := dialAuth(t, l)
	rc.initialize("tester")
	rc.sendf(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"test_progress","arguments":{"n":0,"sleep_ms":300}}}`)
	rc.sendf(`{"jsonrpc":"2.0","id":11,"method":"ping"}`)
	rc.c.(*net.TCPConn).CloseWrite()
	ids := map[float64]bool{}
	for range 2 {
		m := rc.recv()
		ids[m["id"].(float64)] = true
	}
	if !ids[10] || !ids[11] {
		t.Fatalf("answers: %v", ids)
	}
	rc.expectEOF()
}

// TestListenerRefusesPastMaxClients attaches MaxClients, then a 9th: its
// welcome says the window is full, and its first request (after a
// notification, which gets nothing) is answered with the refusal under its
// own id, never id null, then the connection ends.
func TestListenerRefusesPastMaxClients(t *testing.T) {
	l := startListener(t)
	for i := range MaxClients {
		dialAuth(t, l).initialize(fmt.Sprintf("c%d", i))
	}
	rc, w := dialWelcome(t, l)
	if w.State != registry.WelcomeFull || w.Attached != MaxClients {
		t.Fatalf("9th client's welcome: %+v", w)
	}
	rc.sendf(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	rc.sendf(`{"jsonrpc":"2.0","id":"ninth-init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"ninth","version":"1"}}}`)
	m := rc.recv()
	code, msg := errorOf(m)
	if m["id"] != "ninth-init" || code != codeRefused || !strings.Contains(msg, fmt.Sprintf("%d agents are attached", MaxClients)) {
		t.Fatalf("9th client: %v", m)
	}
	rc.expectEOF()
}
