package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/task"
	"trestle/internal/testfix"
)

// Requests the server sends the client (asking.go), driven by mcp-go's own
// client with its elicitation and roots handlers, and by a hand-written
// client for what mcp-go's would never send.

// quickJSON is one task that prints and ends at once.
const quickJSON = `{"tasks": {"quick": {"command": ["echo", "quick"]}}}`

// syncLog is a log a test reads while the server writes it.
type syncLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// askingServer serves a project with the quick task headless, under the
// ask policy with AskThroughClient as --mcp does; its log goes to logs.
func askingServer(t *testing.T, logs io.Writer) *Server {
	t.Helper()
	p := newTestProject(t)
	if err := os.WriteFile(filepath.Join(p.Root, projconf.FileName), []byte(quickJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	sv := services.Services{Tasks: task.NewRunner(p.Root), Gate: permission.NewGate(permission.PolicyAsk, AskThroughClient),
		Config: func() (projconf.Config, error) { return projconf.Load(p.Root) }}
	return NewServer(testAgent(p, nil, sv), Options{Version: "test", Logger: log.New(logs, "", 0)})
}

// clientWith serves srv over pipes, as --mcp does, and returns an mcp-go
// client with opts (its handlers) that has initialized with protocol
// 2025-06-18.
func clientWith(t *testing.T, srv *Server, opts ...client.ClientOption) *client.Client {
	t.Helper()
	return clientAt(t, srv, "2025-06-18", opts...)
}

// clientAt is clientWith at protocol version ("": mcp-go's choice, the
// stateless 2026-07-28 where the server offers it).
func clientAt(t *testing.T, srv *Server, version string, opts ...client.ClientOption) *client.Client {
	t.Helper()
	return clientHearing(t, srv, version, nil, opts...)
}

// clientHearing is clientAt with on, when not nil, hearing the server's
// notifications from before the client starts: a notification the server
// sends right after initialize (a roots warning) would otherwise reach a
// handler set afterwards only when the test's goroutine won the race.
func clientHearing(t *testing.T, srv *Server, version string, on func(mcp.JSONRPCNotification), opts ...client.ClientOption) *client.Client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- ServeStdio(context.Background(), srv, inR, outW); outW.Close() }()
	c := client.NewClient(transport.NewIO(outR, inW, nil), opts...)
	if on != nil {
		c.OnNotification(on)
	}
	// The client serves the server's requests with the context Start gets.
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = version
	req.Params.ClientInfo = mcp.Implementation{Name: "asking-test", Version: "1"}
	init, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if version != "" && init.ProtocolVersion != version {
		t.Fatalf("negotiated %s, want %s", init.ProtocolVersion, version)
	}
	t.Cleanup(func() {
		c.Close()
		select {
		case <-served:
		case <-time.After(30 * time.Second):
			t.Error("ServeStdio did not end after stdin closed")
		}
	})
	return c
}

// elicitFunc is an mcp-go elicitation handler.
type elicitFunc func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

func (f elicitFunc) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return f(ctx, req)
}

// rootsFunc is an mcp-go roots handler.
type rootsFunc func(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error)

func (f rootsFunc) ListRoots(ctx context.Context, req mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	return f(ctx, req)
}

// runQuick calls trestle_run on the quick task and returns the state and text.
func runQuick(t *testing.T, c *client.Client) (state, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = "trestle_run"
	req.Params.Arguments = map[string]any{"task": "quick"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	state, _ = sc["state"].(string)
	for _, content := range res.Content {
		if tc, ok := content.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	return state, text
}

// TestHeadlessAsksThroughElicitation: under --mcp with the ask policy, the
// person is asked through the client's elicitation; what they answer (or a
// client that answers in a shape no form has) decides.
func TestHeadlessAsksThroughElicitation(t *testing.T) {
	answer := func(action mcp.ElicitationResponseAction, content any) elicitFunc {
		return func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: action, Content: content}}, nil
		}
	}
	tests := []struct {
		name      string
		answer    elicitFunc
		wantState string
		wantText  string
	}{
		{"allowed once", answer(mcp.ElicitationResponseActionAccept, map[string]any{"decision": "allow_once"}), "done", "quick"},
		{"denied in the form", answer(mcp.ElicitationResponseActionAccept, map[string]any{"decision": "deny"}), "refused", "denied"},
		{"declined", answer(mcp.ElicitationResponseActionDecline, nil), "refused", "denied"},
		{"cancelled", answer(mcp.ElicitationResponseActionCancel, nil), "refused", "denied"},
		{"decision of the wrong type", answer(mcp.ElicitationResponseActionAccept, map[string]any{"decision": 7}), "refused", "must have a decision string, not a number"},
		{"decision not offered", answer(mcp.ElicitationResponseActionAccept, map[string]any{"decision": "always"}), "refused", `decision "always"`},
		{"content not an object", answer(mcp.ElicitationResponseActionAccept, "yes"), "refused", "must be an object"},
		{"unknown action", answer("maybe", nil), "refused", `action "maybe"`},
		{"the client's handler fails", func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			return nil, fmt.Errorf("no user here")
		}, "refused", "answered with error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked []mcp.ElicitationRequest
			var mu sync.Mutex
			c := clientWith(t, askingServer(t, io.Discard), client.WithElicitationHandler(elicitFunc(
				func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
					mu.Lock()
					asked = append(asked, req)
					mu.Unlock()
					return tt.answer(ctx, req)
				})))
			state, text := runQuick(t, c)
			if state != tt.wantState || !strings.Contains(text, tt.wantText) {
				t.Fatalf("run: state %q, text %q; want %q with %q", state, text, tt.wantState, tt.wantText)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(asked) != 1 || !strings.Contains(asked[0].Params.Message, "asking-test asks Trestle to run this command") ||
				!strings.Contains(asked[0].Params.Message, "echo quick") {
				t.Fatalf("the person was asked %d times: %+v", len(asked), asked)
			}
		})
	}
}

// TestHeadlessAsksInRoundTrips: a client on protocol 2026-07-28, which has
// no server requests, is asked with an input_required result and calls
// again with the answer (mcp-go's client does so by itself).
func TestHeadlessAsksInRoundTrips(t *testing.T) {
	for _, tt := range []struct {
		decision, wantState string
	}{{"allow_once", "done"}, {"deny", "refused"}} {
		t.Run(tt.decision, func(t *testing.T) {
			asked := make(chan string, 4)
			c := clientAt(t, askingServer(t, io.Discard), "", client.WithElicitationHandler(elicitFunc(
				func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
					asked <- req.Params.Message
					return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
						Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"decision": tt.decision}}}, nil
				})))
			if v := c.ProtocolVersion(); !mcp.IsModernProtocol(v) {
				t.Fatalf("mcp-go's client negotiated %q, want 2026-07-28 or later", v)
			}
			state, text := runQuick(t, c)
			if state != tt.wantState || len(asked) != 1 {
				t.Fatalf("run: state %q, text %q, asked %d times; want %s, asked once", state, text, len(asked), tt.wantState)
			}
			if msg := <-asked; !strings.Contains(msg, "asking-test asks Trestle to run this command") || !strings.Contains(msg, "echo quick") {
				t.Fatalf("the question %q does not say who asks to run what", msg)
			}
		})
	}
}

// TestHeadlessWithoutElicitationRefusesAsBefore: a client that offers no
// elicitation has nobody to ask, as the headless server always had.
func TestHeadlessWithoutElicitationRefusesAsBefore(t *testing.T) {
	state, text := runQuick(t, clientWith(t, askingServer(t, io.Discard)))
	if state != "refused" || !strings.Contains(text, "nobody is there to approve") {
		t.Fatalf("run: state %q, text %q; want refused, nobody to approve", state, text)
	}
}

// TestElicitationThatIsNeverAnswered: a client whose user never answers
// costs the call maxClientWait, then the run is refused and the server
// goes on serving.
func TestElicitationThatIsNeverAnswered(t *testing.T) {
	defer func(d time.Duration) { maxClientWait = d }(maxClientWait)
	maxClientWait = time.Second
	release := make(chan struct{})
	defer close(release)
	entered := make(chan struct{}, 4)
	c := clientWith(t, askingServer(t, io.Discard), client.WithElicitationHandler(elicitFunc(
		func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
			entered <- struct{}{}
			<-release
			return nil, ctx.Err()
		})))
	state, text := runQuick(t, c)
	if state != "refused" || !strings.Contains(text, "did not answer within 1s") {
		t.Fatalf("run: state %q, text %q; want refused after the bound", state, text)
	}
	if len(entered) != 1 {
		t.Fatalf("the client was asked %d times, want once", len(entered))
	}
	if _, err := c.ListTools(context.Background(), mcp.ListToolsRequest{}); err != nil {
		t.Fatalf("the server stopped serving after the unanswered question: %v", err)
	}
}

// pipeClient serves srv headless over an in-memory pipe and returns the
// client's end, speaking JSON lines by hand.
func pipeClient(t *testing.T, srv *Server) *rawConn {
	t.Helper()
	cli, serv := net.Pipe()
	served := make(chan error, 1)
	// Without its write deadline: stdout has none, and ServeStdio sets none.
	go func() { served <- ServeStdio(context.Background(), srv, serv, struct{ io.Writer }{serv}); serv.Close() }()
	t.Cleanup(func() {
		cli.Close()
		select {
		case <-served:
		case <-time.After(30 * time.Second):
			t.Error("ServeStdio did not end after the client closed")
		}
	})
	rc := &rawConn{t: t, c: cli, r: bufio.NewReaderSize(cli, 1<<20)}
	cli.SetDeadline(time.Now().Add(60 * time.Second))
	return rc
}

// initializeAsking initializes rc offering caps, then says initialized.
func (rc *rawConn) initializeAsking(caps string) {
	rc.t.Helper()
	rc.sendf(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":%s,"clientInfo":{"name":"by-hand","version":"1"}}}`, caps)
	if m := rc.recv(); m["id"] != "init" || m["result"] == nil {
		rc.t.Fatalf("initialize: %v", m)
	}
	rc.sendf(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// recvMethod reads messages until one with method, and returns it.
func (rc *rawConn) recvMethod(method string) map[string]any {
	rc.t.Helper()
	for {
		if m := rc.recv(); m["method"] == method {
			return m
		}
	}
}

// recvID reads messages until the answer to id, and returns it.
func (rc *rawConn) recvID(id string) map[string]any {
	rc.t.Helper()
	for {
		if m := rc.recv(); m["id"] == id && m["method"] == nil {
			return m
		}
	}
}

// callText is the text of a tools/call answer.
func callText(m map[string]any) string {
	res, _ := m["result"].(map[string]any)
	content, _ := res["content"].([]any)
	var b strings.Builder
	for _, c := range content {
		if tc, ok := c.(map[string]any); ok {
			b.WriteString(fmt.Sprint(tc["text"]))
		}
	}
	return b.String()
}

// TestHostileAnswersToElicitation: answers no well-made client sends, in
// JSON-RPC shapes mcp-go's client cannot be made to write, each refuse the
// run with words that say what was wrong; a reply to nothing is dropped.
func TestHostileAnswersToElicitation(t *testing.T) {
	tests := []struct {
		name, reply, want string
	}{
		{"result is an array", `{"jsonrpc":"2.0","id":%s,"result":[1,2,3]}`, "the result must be an object, not an array"},
		{"result is a string", `{"jsonrpc":"2.0","id":%s,"result":"allow_once"}`, "the result must be an object, not a string"},
		{"result is null", `{"jsonrpc":"2.0","id":%s,"result":null}`, `action ""`},
		{"action is a number", `{"jsonrpc":"2.0","id":%s,"result":{"action":1}}`, "action must be a string"},
		{"error object", `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no forms here"}}`, "no forms here"},
		{"error of the wrong shape", `{"jsonrpc":"2.0","id":%s,"error":"no"}`, "not a JSON-RPC response"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := pipeClient(t, askingServer(t, io.Discard))
			rc.initializeAsking(`{"elicitation":{}}`)
			rc.sendf(`{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"trestle_run","arguments":{"task":"quick"}}}`)
			ask := rc.recvMethod("elicitation/create")
			id := fmt.Sprint(ask["id"])
			rc.sendf(`{"jsonrpc":"2.0","id":12345,"result":{"action":"accept","content":{"decision":"allow_once"}}}`) // answers nothing
			rc.sendf(tt.reply, id)
			m := rc.recvID("r1")
			if state := resState(m["result"].(map[string]any)); state != "refused" || !strings.Contains(callText(m), tt.want) {
				t.Fatalf("run: state %v, text %q; want refused with %q", state, callText(m), tt.want)
			}
		})
	}
}

// TestCancelledCallCancelsItsQuestion: when the client cancels the call
// that is waiting for the person, the server cancels its question too
// (notifications/cancelled with the question's id) and answers nothing.
func TestCancelledCallCancelsItsQuestion(t *testing.T) {
	rc := pipeClient(t, askingServer(t, io.Discard))
	rc.initializeAsking(`{"elicitation":{}}`)
	rc.sendf(`{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"trestle_run","arguments":{"task":"quick"}}}`)
	ask := rc.recvMethod("elicitation/create")
	rc.sendf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r1"}}`)
	cancelled := rc.recvMethod("notifications/cancelled")
	params, _ := cancelled["params"].(map[string]any)
	if fmt.Sprint(params["requestId"]) != fmt.Sprint(ask["id"]) {
		t.Fatalf("cancelled %v, want the question %v", params, ask["id"])
	}
	rc.sendf(`{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
	if m := rc.recv(); m["id"] != "ping" {
		t.Fatalf("after the cancel, the next message is %v; want the ping's answer (no answer to the cancelled call)", m)
	}
}

// TestQuestionEndsWithTheClient: a client that closes its side while a
// question waits ends the question at once, not after maxClientWait.
func TestQuestionEndsWithTheClient(t *testing.T) {
	defer func(d time.Duration) { maxClientWait = d }(maxClientWait)
	maxClientWait = time.Hour // would hang the test if the end of the stream were not seen
	srv := askingServer(t, io.Discard)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- ServeStdio(context.Background(), srv, inR, outW); outW.Close() }()
	lines := bufio.NewReader(outR)
	io.WriteString(inW, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"by-hand","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+
		`{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"trestle_run","arguments":{"task":"quick"}}}`+"\n")
	for {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("the question never came: %v", err)
		}
		if strings.Contains(line, `"elicitation/create"`) {
			break
		}
	}
	go io.Copy(io.Discard, lines) // read what the server writes as it ends
	inW.Close()
	select {
	case <-served:
	case <-time.After(60 * time.Second):
		t.Fatal("the server still waits for the answer of a client that closed its side")
	}
}

// TestRootsOutsideTheProjectWarn: a client whose roots do not overlap the
// project is asked for them, and warned, in the log and as a log message;
// one whose root holds the project is not. Through mcp-go's roots handler.
func TestRootsOutsideTheProjectWarn(t *testing.T) {
	elsewhere := t.TempDir()
	for _, tt := range []struct {
		name string
		root func(project string) string
		warn bool
	}{
		{"elsewhere", func(string) string { return elsewhere }, true},
		{"the project's parent", filepath.Dir, false},
		{"inside the project", func(p string) string { return filepath.Join(p, "pkg") }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			logs := &syncLog{}
			srv := askingServer(t, logs)
			root := "file://" + filepath.ToSlash(tt.root(srv.agent.Project().Root))
			warned := make(chan string, 1)
			clientHearing(t, srv, "2025-06-18", func(n mcp.JSONRPCNotification) {
				if n.Method == string(mcp.MethodNotificationMessage) {
					select {
					case warned <- fmt.Sprint(n.Params.AdditionalFields["data"]):
					default:
					}
				}
			}, client.WithRootsHandler(rootsFunc(
				func(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
					return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: root, Name: "work"}}}, nil
				})))
			testfix.Wait(t, 30*time.Second, "the server logs the client's roots", func() bool {
				return strings.Contains(logs.String(), "works in: "+root)
			})
			if got := strings.Contains(logs.String(), "which is not this Trestle project"); got != tt.warn {
				t.Fatalf("warned %v, want %v; log: %s", got, tt.warn, logs.String())
			}
			if !tt.warn {
				return
			}
			select {
			case msg := <-warned:
				if !strings.Contains(msg, root) || !strings.Contains(msg, srv.agent.Project().Root) {
					t.Fatalf("the client's warning %q names neither its root nor the project", msg)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the client got no warning")
			}
		})
	}
}

// noticeWindow is shownWindow that keeps the notices it shows.
type noticeWindow struct {
	shownWindow
	notices chan string
}

func (w noticeWindow) Notice(_ context.Context, client, message string) error {
	w.notices <- client + ": " + message
	return nil
}

// TestRootsAskedOverTheWindowSocket: over the window's listener (what
// --mcp-attach copies), the server asks for roots when the client
// initializes and again when it says they changed, and tells the person
// in the window when they are elsewhere.
func TestRootsAskedOverTheWindowSocket(t *testing.T) {
	w := noticeWindow{notices: make(chan string, 4)}
	p := newTestProject(t)
	srv := NewServer(testAgent(p, w, services.Services{}), quiet())
	rc := dialAuth(t, serveListener(t, srv, nil))
	rc.initializeAsking(`{"roots":{"listChanged":true}}`)
	for i, dir := range []string{p.Root, t.TempDir()} {
		ask := rc.recvMethod("roots/list")
		rc.sendf(`{"jsonrpc":"2.0","id":%v,"result":{"roots":[{"uri":%q}]}}`, ask["id"], "file://"+dir)
		if i == 0 {
			rc.sendf(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
		}
	}
	select {
	case n := <-w.notices:
		if !strings.Contains(n, "by-hand works in file://") || !strings.Contains(n, p.Root) {
			t.Fatalf("notice %q", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the window showed no notice for roots elsewhere")
	}
	if len(w.notices) != 0 {
		t.Fatalf("the roots that are the project were warned about too: %q", <-w.notices)
	}
}

// TestRoundTripAnswerIsBoundToItsQuestion: on protocol 2026-07-28 an
// answer counts only with the state of the question it answers: one sent
// unasked, or with a forged state, gets the question instead of a run.
func TestRoundTripAnswerIsBoundToItsQuestion(t *testing.T) {
	rc := pipeClient(t, askingServer(t, io.Discard))
	call := func(id, state string) map[string]any {
		rc.sendf(`{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":"trestle_run","arguments":{"task":"quick"},`+
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},`+
			`"io.modelcontextprotocol/clientInfo":{"name":"by-hand","version":"1"}},`+
			`"inputResponses":{"permission":{"action":"accept","content":{"decision":"allow_once"}}},"requestState":%q}}`, id, state)
		m := rc.recvID(id)
		res, _ := m["result"].(map[string]any)
		if res == nil {
			t.Fatalf("tools/call %s: %v", id, m)
		}
		return res
	}
	for _, forged := range []string{"", "forged"} {
		res := call("forged-"+forged, forged)
		if res["resultType"] != "input_required" || res["requestState"] == "" {
			t.Fatalf("an answer with state %q ran the task: %v", forged, res)
		}
	}
	asked := call("ask", "")
	questions, _ := asked["inputRequests"].(map[string]any)
	if questions["permission"] == nil {
		t.Fatalf("no permission question in %v", asked)
	}
	res := call("answered", fmt.Sprint(asked["requestState"]))
	if resState(res) != "done" || !strings.Contains(fmt.Sprint(res["content"]), "quick") {
		t.Fatalf("the answered call: %v", res)
	}
}
