package mcpbridge

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/search"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/app/workbench"
)

// countingListener is a listener whose server counts every tool call (a
// test tool and OnCall), so a test can prove nothing reached a tool.
type countingListener struct {
	testListener
	calls *atomic.Int64
}

func startCountingListener(t *testing.T, handshake time.Duration) countingListener {
	t.Helper()
	var calls atomic.Int64
	srv := NewServer(testAgent(newTestProject(t), nil, services.Services{}), Options{Version: "test", Logger: log.New(io.Discard, "", 0), OnCall: func(workbench.ToolCall) { calls.Add(1) }})
	srv.MCP().AddTool(mcp.NewTool("test_count"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		calls.Add(1)
		return mcp.NewToolResultText("counted"), nil
	})
	tl := serveListener(t, srv, func(l *Listener) {
		if handshake > 0 {
			l.handshakeTimeout = handshake
		}
	})
	return countingListener{tl, &calls}
}

// hostileCalls are what an intruder sends after its first line: an
// initialize and calls of the counting tool and a real one.
const hostileCalls = initializeLine + "\n" + initializedLine + "\n" +
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_count","arguments":{}}}` + "\n" +
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trestle_read","arguments":{"path":"main.go"}}}` + "\n"

// TestAuthenticationRefusesIntruders sends first lines that do not carry
// the token, then tool calls: each connection gets one refusal line and is
// closed, and no tool ever runs.
func TestAuthenticationRefusesIntruders(t *testing.T) {
	l := startCountingListener(t, 0)
	tok := l.token
	flip := string(rune(tok[0]^1)) + tok[1:] // same length, one bit off
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_count","arguments":{}}}`
	tests := []struct {
		name, send, want string
	}{
		{"no token", hostileCalls, "token line"},
		{"empty line", "\n" + hostileCalls, "token line"},
		{"wrong token", fmt.Sprintf(`{"trestle_token":%q}`, strings.Repeat("0", 64)) + "\n" + hostileCalls, "wrong token"},
		{"one bit off", fmt.Sprintf(`{"trestle_token":%q}`, flip) + "\n" + hostileCalls, "wrong token"},
		{"too short", fmt.Sprintf(`{"trestle_token":%q}`, tok[:63]) + "\n" + hostileCalls, "wrong token"},
		{"too long", fmt.Sprintf(`{"trestle_token":%q}`, tok+"0") + "\n" + hostileCalls, "wrong token"},
		{"prefix", fmt.Sprintf(`{"trestle_token":%q}`, tok[:1]) + "\n" + hostileCalls, "wrong token"},
		{"token as a number", `{"trestle_token":1234}` + "\n" + hostileCalls, "token line"},
		{"token in another field", fmt.Sprintf(`{"token":%q}`, tok) + "\n" + hostileCalls, "token line"},
		{"right token on the second line", "junk\n" + fmt.Sprintf(`{"trestle_token":%q}`, tok) + "\n" + hostileCalls, "token line"},
		{"right token after an empty line", "\n" + fmt.Sprintf(`{"trestle_token":%q}`, tok) + "\n" + hostileCalls, "token line"},
		{"first line over the limit", `{"trestle_token":"` + strings.Repeat("a", 8<<10) + `"}` + "\n" + hostileCalls, "token line"},
		{"http post", "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nOrigin: http://evil.example\r\n" +
			fmt.Sprintf("Content-Length: %d\r\n\r\n%s\n", len(body)+1, body), "token line"},
		{"http post with the token line as body", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n\r\n" +
			fmt.Sprintf(`{"trestle_token":%q}`, tok) + "\n" + hostileCalls, "token line"},
		{"websocket upgrade", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n" + hostileCalls, "token line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := dial(t, l.Addr())
			io.WriteString(rc.c, tt.send)
			m := rc.recv()
			code, msg := errorOf(m)
			if code != codeRefused || !strings.HasPrefix(msg, "refused:") || !strings.Contains(msg, tt.want) {
				t.Fatalf("got %v, want a refusal mentioning %q", m, tt.want)
			}
			rc.expectEOF()
		})
	}
	if n := l.calls.Load(); n != 0 {
		t.Fatalf("%d tool calls ran without the token", n)
	}
	// The control: with the token the same calls do run, so the count works.
	rc := dialAuth(t, l.testListener)
	io.WriteString(rc.c, hostileCalls)
	for range 3 { // initialize, then the two calls
		rc.recv()
	}
	if n := l.calls.Load(); n != 3 { // test_count counts itself and OnCall; trestle_read once via OnCall
		t.Fatalf("with the token %d counts, want 3", n)
	}
}

// TestAuthenticationBoundsSlowloris sends the right token line one byte per
// 100 ms: the connection is refused and closed when the handshake bound
// runs out, and no tool runs. One run uses a short bound, one the real 5 s.
func TestAuthenticationBoundsSlowloris(t *testing.T) {
	for _, bound := range []time.Duration{700 * time.Millisecond, defaultHandshakeTimeout} {
		t.Run(bound.String(), func(t *testing.T) {
			t.Parallel()
			l := startCountingListener(t, bound)
			start := time.Now() // before the server accepts, so took >= bound
			rc := dial(t, l.Addr())
			var wg sync.WaitGroup
			stop := make(chan struct{})
			wg.Go(func() {
				line := fmt.Sprintf(`{"trestle_token":%q}`, l.token) + "\n" + hostileCalls
				for i := range len(line) {
					select {
					case <-stop:
						return
					case <-time.After(100 * time.Millisecond):
					}
					if _, err := rc.c.Write([]byte{line[i]}); err != nil {
						return
					}
				}
			})
			defer func() { close(stop); wg.Wait() }()
			m := rc.recv()
			took := time.Since(start)
			code, msg := errorOf(m)
			if code != codeRefused || !strings.Contains(msg, "no token line within "+bound.String()) {
				t.Fatalf("got %v", m)
			}
			rc.expectEOF()
			if took < bound-10*time.Millisecond || took > bound+time.Second {
				t.Fatalf("closed after %v, want about %v", took, bound)
			}
			if n := l.calls.Load(); n != 0 {
				t.Fatalf("%d tool calls ran", n)
			}
		})
	}
}

// hostileRoot is a project with a folder outside it holding a secret, and
// symlinks from the project to that file and that folder.
type hostileRoot struct {
	project *project.Project
	outside string
}

const secret = "TOP-SECRET-CONTENT"

func newHostileRoot(t *testing.T) hostileRoot {
	t.Helper()
	project := newTestProject(t)
	outside := t.TempDir()
	for _, name := range []string{"secret.txt", "secret.go", "x"} {
		if err := os.WriteFile(filepath.Join(outside, name), []byte(secret+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(filepath.Dir(project.Root), "secret.txt"), []byte(secret+"\n"), 0o644) // the project's sibling
	for link, target := range map[string]string{"link.txt": filepath.Join(outside, "secret.txt"), "linkdir": outside,
		"pkg/up": "../..", "pkg/abs.go": filepath.Join(outside, "secret.go")} {
		if err := os.Symlink(target, filepath.Join(project.Root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	return hostileRoot{project, outside}
}

// hostilePaths are path arguments that try to leave the project.
func (h hostileRoot) hostilePaths() []string {
	long := strings.Repeat("d/", 2100) + "x" // 4201 bytes
	return []string{
		"..", "../", "../secret.txt", "../../../../../../etc/passwd", "a/../../secret.txt", "pkg/../../secret.txt",
		"./../secret.txt", "pkg/..", "pkg/../..", "pkg/../../", "docs/./../../secret.txt", "pkg//..//..//secret.txt",
		`..\secret.txt`, "%2e%2e/secret.txt", "~/secret.txt", "..%00/secret.txt",
		h.outside, filepath.Join(h.outside, "secret.txt"), "/etc/passwd", "//etc/passwd", "/", "file:///etc/passwd",
		filepath.Join(h.project.Root, "..", "secret.txt"), filepath.Join(h.project.Root, "linkdir", "secret.txt"),
		"link.txt", "linkdir", "linkdir/", "linkdir/secret.txt", "linkdir/../secret.txt", "linkdir/x", "pkg/up",
		"pkg/up/secret.txt", "pkg/abs.go", "./link.txt", "pkg/../link.txt",
		"name\nwith newline", "main.go\n", "\n../secret.txt", "nul\x00byte", "main.go\x00../secret.txt", "\x00",
		long, "pkg/" + strings.Repeat("n", 256), strings.Repeat("n", 255) + "/../../secret.txt",
	}
}

// leaks reports whether a result carries the secret or an outside path.
func (h hostileRoot) leaks(res *mcp.CallToolResult) bool {
	text := textOf(res) + fmt.Sprintf("%+v", res.StructuredContent)
	return strings.Contains(text, secret) || strings.Contains(text, "root:x:0:0")
}

// openRecorder is a window that records what it was asked to open.
type openRecorder struct {
	definitionsOnly
	mu     sync.Mutex
	opened []string
}

// Buffer says no file is open, so reads go to disk.
func (w *openRecorder) Buffer(context.Context, project.Path) (string, bool, bool, error) {
	return "", false, false, nil
}

func (w *openRecorder) Open(_ context.Context, path project.Path, _ int) error {
	w.record(path.Rel())
	return nil
}

func (w *openRecorder) SelectRange(_ context.Context, path project.Path, _, _, _, _ int) error {
	w.record(path.Rel())
	return nil
}

func (w *openRecorder) record(rel string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.opened = append(w.opened, rel)
}

// TestToolPathsNeverEscape sends every hostile path to every tool that
// takes a path: each result is refused, problem or none, never done with
// outside content, and the window is never asked to open an outside file.
func TestToolPathsNeverEscape(t *testing.T) {
	h := newHostileRoot(t)
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	win := &openRecorder{}
	cs := changeset.NewManager(db, h.project)
	srv := NewServer(testAgent(h.project, win, services.Services{Tasks: task.NewRunner(h.project.Root), ChangeSets: cs}), quiet())
	ctx := context.Background()
	tools := map[string]func(string) *mcp.CallToolResult{
		"trestle_read": func(p string) *mcp.CallToolResult { return srv.read(ctx, readParams{Path: p}) },
		"trestle_open": func(p string) *mcp.CallToolResult { return srv.open(ctx, openParams{Path: p, Line: 1}) },
		"trestle_open range": func(p string) *mcp.CallToolResult {
			return srv.open(ctx, openParams{Path: p, Line: 1, EndLine: 2})
		},
		"trestle_diagnostics": func(p string) *mcp.CallToolResult { return srv.diagnostics(ctx, diagnosticsParams{Path: p}) },
		"trestle_change_set_propose create": func(p string) *mcp.CallToolResult {
			return srv.propose(ctx, proposeParams{Title: "t", Changes: []changeset.Change{{Action: "create", Path: p, Content: "pwned\n"}}})
		},
		"trestle_change_set_propose replace": func(p string) *mcp.CallToolResult {
			return srv.propose(ctx, proposeParams{Title: "t", Changes: []changeset.Change{{Action: "replace", Path: p, Content: "pwned\n"}}})
		},
		"trestle_change_set_propose edit": func(p string) *mcp.CallToolResult {
			return srv.propose(ctx, proposeParams{Title: "t", Changes: []changeset.Change{{Action: "edit", Path: p,
				Edits: []changeset.Edit{{OldText: secret, NewText: "pwned"}}}}})
		},
		"trestle_change_set_propose delete": func(p string) *mcp.CallToolResult {
			return srv.propose(ctx, proposeParams{Title: "t", Changes: []changeset.Change{{Action: "delete", Path: p}}})
		},
	}
	cases := 0
	for name, tool := range tools {
		for _, p := range h.hostilePaths() {
			cases++
			t.Run(fmt.Sprintf("%s/%.60q", name, p), func(t *testing.T) {
				res := tool(p)
				state, _, _ := strings.Cut(textOf(res), ":")
				// A name that looks hostile but lands inside the project
				// ("..%2e", "~/x", "file:/x") may be opened or created there;
				// a change set refuses control characters too.
				plainInside := insideRel(p, h) &&
					(!strings.HasPrefix(name, "trestle_change_set") || strings.IndexFunc(p, unicode.IsControl) < 0)
				if !plainInside && (!res.IsError || (state != stateRefused && state != stateProblem && state != stateNone)) {
					t.Fatalf("%q: isError %v: %.300s", p, res.IsError, textOf(res))
				}
				if h.leaks(res) {
					t.Fatalf("%q leaked outside content: %.300s", p, textOf(res))
				}
			})
		}
	}
	for _, rel := range win.opened {
		if !insideRel(rel, h) {
			t.Errorf("the window was asked to open %q", rel)
		}
	}
	list, _ := cs.List("")
	for _, c := range list {
		for _, f := range c.Files {
			if !insideRel(f.Path, h) || strings.IndexFunc(f.Path, unicode.IsControl) >= 0 {
				t.Errorf("%s proposes %q", c.ID, f.Path)
			}
		}
	}
	h.outsideUntouched(t)
	t.Logf("%d path cases", cases)
}

// insideRel reports whether rel resolves, symlinks followed, to a path
// inside the project.
func insideRel(rel string, h hostileRoot) bool {
	cp, err := h.project.Resolve(rel)
	if err != nil {
		return false
	}
	back, err := filepath.Rel(h.project.Root, cp.Abs())
	return err == nil && back != ".." && !strings.HasPrefix(back, "../")
}

// outsideUntouched checks the outside folder still holds exactly the three
// secret files.
func (h hostileRoot) outsideUntouched(t *testing.T) {
	t.Helper()
	items, _ := os.ReadDir(h.outside)
	if len(items) != 3 {
		t.Errorf("the outside folder now has %d items", len(items))
	}
	for _, it := range items {
		if data, _ := os.ReadFile(filepath.Join(h.outside, it.Name())); string(data) != secret+"\n" {
			t.Errorf("outside %s was changed: %q", it.Name(), data)
		}
	}
}

// TestListingAndSearchNeverEscape lists and searches with hostile under and
// glob arguments: no outside file name or content ever comes back.
func TestListingAndSearchNeverEscape(t *testing.T) {
	h := newHostileRoot(t)
	srv := NewServer(testAgent(h.project, nil, services.Services{}), quiet())
	ctx := context.Background()
	cases := 0
	for _, p := range h.hostilePaths() {
		cases++
		t.Run(fmt.Sprintf("under %.60q", p), func(t *testing.T) {
			res := srv.files(ctx, filesParams{Under: p})
			if !res.IsError && !insideRel(p, h) {
				t.Fatalf("under %q listed: %.300s", p, textOf(res))
			}
			if listsOutside(res) {
				t.Fatalf("under %q listed outside files: %.300s", p, textOf(res))
			}
		})
	}
	globs := append(h.hostilePaths(), "*", "**", "*/*", "*/*/*", "../*", "/*", "linkdir/*", "*secret*", "[", "\\")
	for _, g := range globs {
		cases += 2
		t.Run(fmt.Sprintf("glob %.60q", g), func(t *testing.T) {
			res := srv.search(ctx, searchParams{Pattern: secret, Glob: g})
			if h.leaks(res) {
				t.Fatalf("search with glob %q found the secret: %.300s", g, textOf(res))
			}
			res = srv.files(ctx, filesParams{Glob: g})
			if listsOutside(res) {
				t.Fatalf("files with glob %q: %.300s", g, textOf(res))
			}
		})
	}
	t.Logf("%d listing and search cases", cases)
}

// listsOutside reports whether a trestle_files result lists a file of the
// outside folder (every name there has "secret" or is "x").
func listsOutside(res *mcp.CallToolResult) bool {
	fr, ok := res.StructuredContent.(filesResult)
	if !ok {
		return false
	}
	for _, f := range fr.Files {
		if strings.Contains(f, "secret") || path.Base(f) == "x" {
			return true
		}
	}
	return false
}

// TestLimitsOnePast goes one past each result cap of the tools.
func TestLimitsOnePast(t *testing.T) {
	c := stdioClient(t, func(dir string) {
		os.WriteFile(filepath.Join(dir, "many.txt"), []byte(strings.Repeat("needle\n", 5)), 0o644)
	})
	tests := []struct {
		name      string
		tool      string
		args      map[string]any
		wantError bool
		wantTrunc bool
		wantN     int
	}{
		{"search at the limit", "trestle_search", map[string]any{"pattern": "needle", "limit": 5}, false, false, 5},
		{"search one under the matches", "trestle_search", map[string]any{"pattern": "needle", "limit": 4}, false, true, 4},
		{"search limit at the maximum", "trestle_search", map[string]any{"pattern": "needle", "limit": search.MaxLimit}, false, false, 5},
		{"search limit one past the maximum", "trestle_search", map[string]any{"pattern": "needle", "limit": search.MaxLimit + 1}, true, false, 0},
		// Five files: docs/readme.txt, go.mod, main.go, many.txt, pkg/util.go.
		{"files at the limit", "trestle_files", map[string]any{"limit": 5}, false, false, 5},
		{"files one under", "trestle_files", map[string]any{"limit": 4}, false, true, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, sc := callTool(t, c, tt.tool, tt.args)
			if res.IsError != tt.wantError {
				t.Fatalf("isError %v: %s", res.IsError, textOf(res))
			}
			if tt.wantError {
				if !strings.HasPrefix(textOf(res), "problem: ") {
					t.Fatalf("text %q", textOf(res))
				}
				return
			}
			n, truncated := 0, sc["truncated"]
			if f, ok := sc["files"].([]any); ok {
				n = len(f)
			} else { // trestle_search answers in text only: a line per match
				n = strings.Count(textOf(res), "many.txt:")
				truncated = strings.Contains(textOf(res), "left off")
			}
			if n != tt.wantN || truncated != tt.wantTrunc {
				t.Fatalf("%d results, truncated %v; want %d, %v", n, truncated, tt.wantN, tt.wantTrunc)
			}
			if tt.wantTrunc && !strings.Contains(textOf(res), "left off") {
				t.Fatalf("truncation not said in the text: %q", textOf(res))
			}
		})
	}
}
