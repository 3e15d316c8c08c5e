package mcpbridge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/task"
	"trestle/internal/testfix"
)

// recordingAsk answers every permission request with d and keeps them.
type recordingAsk struct {
	d  permission.Decision
	mu sync.Mutex
	rs []permission.Request
}

func (a *recordingAsk) ask(_ context.Context, req permission.Request) (permission.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.rs = append(a.rs, req)
	return a.d, nil
}

func (a *recordingAsk) requests() []permission.Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]permission.Request(nil), a.rs...)
}

// gatedListener serves a project with tasks under the ask policy over a
// real loopback listener.
func gatedListener(t *testing.T, conf string, ask *recordingAsk) (testListener, *permission.Gate) {
	t.Helper()
	l, sv := gatedServices(t, conf, ask)
	return l, sv.Gate
}

// gatedServices is gatedListener with the services it serves.
func gatedServices(t *testing.T, conf string, ask *recordingAsk) (testListener, services.Services) {
	t.Helper()
	project := newTestProject(t)
	if err := os.WriteFile(filepath.Join(project.Root, projconf.FileName), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	gate := permission.NewGate(permission.PolicyAsk, ask.ask)
	sv := services.Services{Tasks: task.NewRunner(project.Root), Gate: gate,
		Eval: eval.NewManager(eval.ManagerOptions{Root: project.Root, Module: project.Module,
			WorkerCommand: testWorkerCommand}),
		Config: func() (projconf.Config, error) { return projconf.Load(project.Root) }}
	t.Cleanup(sv.Eval.Close)
	srv := NewServer(testAgent(project, nil, sv), quiet())
	return serveListener(t, srv, nil), sv
}

// call sends tools/call and returns its result, skipping notifications.
func (rc *rawConn) call(id, tool, args string) map[string]any {
	rc.t.Helper()
	rc.sendf(`{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
	for {
		m := rc.recv()
		if m["id"] == id {
			res, _ := m["result"].(map[string]any)
			if res == nil {
				rc.t.Fatalf("%s: %v", tool, m)
			}
			return res
		}
	}
}

func resState(res map[string]any) any {
	sc, _ := res["structuredContent"].(map[string]any)
	return sc["state"]
}

// TestSessionGrantEndsWithTheConnection is issue 11 item 3's third part: an
// "Allow for this session" must not outlive the connection it was given to.
func TestSessionGrantEndsWithTheConnection(t *testing.T) {
	ask := &recordingAsk{d: permission.AllowSession}
	l, gate := gatedListener(t, trestleJSON, ask)
	a := dialAuth(t, l)
	a.initialize("agent-a")
	for _, id := range []string{"r1", "r2"} {
		if res := a.call(id, "trestle_run", `{"task":"echo"}`); resState(res) != "done" && resState(res) != "problem" {
			t.Fatalf("run %s: %v", id, res)
		}
	}
	rs := ask.requests()
	if len(rs) != 1 {
		t.Fatalf("asked %d times, want once (then the session grant)", len(rs))
	}
	id := rs[0].Session
	if !gate.Granted(id) {
		t.Fatalf("no grant for %s after Allow for this session", id)
	}
	a.c.Close()
	testfix.Wait(t, 30*time.Second, "the grant of "+id+" gone with its connection", func() bool { return !gate.Granted(id) })
}

// TestNewSessionNeverInheritsAGrant: a grant left for an id (as after a
// listener restart numbers connections from conn-1 again) is dropped when a
// session with that id begins.
func TestNewSessionNeverInheritsAGrant(t *testing.T) {
	ask := &recordingAsk{d: permission.AllowSession}
	l, gate := gatedListener(t, trestleJSON, ask)
	gate.Check(context.Background(), permission.Request{Session: "conn-1", Kind: "run"})
	if !gate.Granted("conn-1") {
		t.Fatal("setup: no grant")
	}
	a := dialAuth(t, l)
	a.initialize("agent-b")
	ask.d = permission.Deny
	if res := a.call("r1", "trestle_run", `{"task":"echo"}`); resState(res) != "refused" {
		t.Fatalf("a new connection ran under an earlier session's grant: %v", res)
	}
	if n := len(ask.requests()); n != 2 {
		t.Fatalf("asked %d times, want 2", n)
	}
}

// TestToolsRefuseGitMetadata: .git/config is readable through trestle_read
// (issue 11), and remote URLs can hold credentials. Every way in is
// refused, with words that say why.
func TestToolsRefuseGitMetadata(t *testing.T) {
	const secret = "hunter2-credential"
	c := stdioClient(t, func(dir string) {
		os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[remote \"origin\"]\n\turl = https://u:"+secret+"@h/r\n"), 0o644)
		os.MkdirAll(filepath.Join(dir, ".GIT"), 0o755)
		os.WriteFile(filepath.Join(dir, ".GIT", "config"), []byte("url = https://u:"+secret+"@h/r\n"), 0o644)
		os.Symlink(".git", filepath.Join(dir, "gitlink"))
		os.Symlink(".git/config", filepath.Join(dir, "notes.txt"))
	})
	for _, path := range []string{".git/config", ".GIT/config", "./.Git/config", "gitlink/config", "notes.txt", "docs/../.git/config"} {
		res, sc := callTool(t, c, "trestle_read", map[string]any{"path": path})
		if !res.IsError || sc["state"] != "refused" || !strings.Contains(textOf(res), "git's own folder") || strings.Contains(textOf(res), secret) {
			t.Errorf("trestle_read %s: %v %q", path, sc["state"], textOf(res))
		}
	}
	for _, under := range []string{".git", "gitlink"} {
		res, sc := callTool(t, c, "trestle_files", map[string]any{"under": under})
		if !res.IsError || sc["state"] != "refused" {
			t.Errorf("trestle_files under %s: %v %q", under, sc["state"], textOf(res))
		}
	}
	res, _ := callTool(t, c, "trestle_files", map[string]any{})
	if strings.Contains(strings.ToLower(textOf(res)), ".git/") {
		t.Errorf("trestle_files lists git's folder:\n%s", textOf(res))
	}
	res, _ = callTool(t, c, "trestle_search", map[string]any{"pattern": secret})
	if strings.Contains(textOf(res), secret) {
		t.Errorf("trestle_search found the credential:\n%s", textOf(res))
	}
}

// TestPermissionRequestCarriesTheEnvironment is issue 11 item 8: a
// .trestle.json selection with CC set to a shell command ran under allow
// through trestle_run build, and under ask the dialog showed only
// "go build ./...". The person is asked about everything that decides what
// runs: the environment and tags the selection adds, the folder, and for
// an evaluation what it imports first.
func TestPermissionRequestCarriesTheEnvironment(t *testing.T) {
	const conf = `{"selections": {"cgo": {"tags": ["evil"], "env": {"CGO_ENABLED": "1", "CC": "sh -c 'echo pwned' #"},
		"preload": ["example.com/demo/pkg"]}},
	"tasks": {"gen": {"command": ["go", "generate"], "dir": "pkg"}}}`
	ask := &recordingAsk{d: permission.Deny}
	l, _ := gatedListener(t, conf, ask)
	a := dialAuth(t, l)
	a.initialize("agent-env")
	for i, call := range []struct{ tool, args string }{
		{"trestle_run", `{"task":"build","selection":"cgo"}`},
		{"trestle_run", `{"task":"gen","selection":"cgo"}`},
		{"trestle_eval", `{"code":"1+1","selection":"cgo"}`},
	} {
		if res := a.call(fmt.Sprint(i), call.tool, call.args); resState(res) != "refused" {
			t.Fatalf("%s under a denied ask: %v", call.tool, res)
		}
	}
	rs := ask.requests()
	if len(rs) != 3 {
		t.Fatalf("asked %d times, want 3: %+v", len(rs), rs)
	}
	wantEnv := "CC=sh -c 'echo pwned' #|CGO_ENABLED=1"
	for i, r := range rs[:3] {
		if got := strings.Join(r.Env, "|"); got != wantEnv || strings.Join(r.Tags, ",") != "evil" || r.Selection != "cgo" {
			t.Errorf("request %d (%s %q): selection %q env %q tags %v; want the selection's", i, r.Kind, r.Detail, r.Selection, got, r.Tags)
		}
	}
	if rs[0].Detail != "go build ./..." || rs[1].Dir != "pkg" || rs[1].Detail != "go generate" {
		t.Errorf("runs: %+v / %+v", rs[0], rs[1])
	}
	if rs[2].Kind != "evaluate" || strings.Join(rs[2].Preload, ",") != "example.com/demo/pkg" {
		t.Errorf("evaluation: %+v", rs[2])
	}
}

// TestVetAsksWithTheDefaultSelection: trestle_diagnostics' refresh runs go
// vet under the default selection; the person sees its environment too.
func TestVetAsksWithTheDefaultSelection(t *testing.T) {
	project := newTestProject(t)
	conf := `{"selections": {"default": {"env": {"GOFLAGS": "-toolexec=evil-tool"}}}}`
	os.WriteFile(filepath.Join(project.Root, projconf.FileName), []byte(conf), 0o644)
	ask := &recordingAsk{d: permission.Deny}
	srv := NewServer(testAgent(project, &tabsWindow{}, services.Services{Tasks: task.NewRunner(project.Root), Gate: permission.NewGate(permission.PolicyAsk, ask.ask),
		Config: func() (projconf.Config, error) { return projconf.Load(project.Root) }}), quiet())
	if _, err := srv.agent.Vet(context.Background(), srv.caller(context.Background()), ""); err == nil {
		t.Fatalf("vet under a denied ask went ahead")
	}
	rs := ask.requests()
	if len(rs) != 1 || rs[0].Detail != "go vet ./..." || rs[0].Selection != "default" ||
		strings.Join(rs[0].Env, "|") != "GOFLAGS=-toolexec=evil-tool" {
		t.Fatalf("requests %+v", rs)
	}
}
