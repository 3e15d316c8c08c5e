package mcpbridge

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/task"
	"trestle/internal/testfix"
)

const trestleJSON = `{"tasks": {
  "echo": {"command": ["sh", "-c", "echo one; echo two; exit 3"]},
  "slow": {"command": ["sh", "-c", "echo start; sleep 30"]},
  "gated": {"command": ["sh", "-c", "echo one; while [ ! -f gate ]; do sleep 0.02; done; echo two"]}
}}`

// servicesClient serves a project with a real evaluator (this test binary
// as its worker) and task runner over the stdio path, policy allow.
func servicesClient(t *testing.T, policy string) (*client.Client, services.Services) {
	t.Helper()
	c, sv, _ := servicesClientRoot(t, policy)
	return c, sv
}

// servicesClientRoot is servicesClient that also returns the project root.
func servicesClientRoot(t *testing.T, policy string) (*client.Client, services.Services, string) {
	t.Helper()
	project := newTestProject(t)
	os.WriteFile(filepath.Join(project.Root, projconf.FileName), []byte(trestleJSON), 0o644)
	sv := services.Services{
		Eval: eval.NewManager(eval.ManagerOptions{Root: project.Root, Module: project.Module,
			WorkerCommand: testWorkerCommand}),
		Tasks:  task.NewRunner(project.Root),
		Gate:   permission.NewGate(policy, nil),
		Config: func() (projconf.Config, error) { return projconf.Load(project.Root) },
	}
	t.Cleanup(sv.Eval.Close)
	srv := NewServer(testAgent(project, nil, sv), quiet())
	return connectStdio(t, srv, "eval-test"), sv, project.Root
}

func TestEvalTool(t *testing.T) {
	c, _ := servicesClient(t, permission.PolicyAllow)
	tests := []struct {
		name      string
		args      map[string]any
		wantState string
		want      string // in the text
	}{
		{"value", map[string]any{"code": "x := 40\nx + 2"}, "done", "= 42 (int)"},
		{"state kept", map[string]any{"code": "x * 2"}, "done", "= 80 (int)"},
		{"output", map[string]any{"code": "import \"fmt\"\nfmt.Println(\"hello\")"}, "done", "hello"},
		{"compile error", map[string]any{"code": "undefinedThing + 1"}, "problem", "undefined"},
		{"deadline", map[string]any{"code": "for {}", "timeout_seconds": 1}, "problem", "state (variables, imports) was lost"},
		{"fresh after deadline", map[string]any{"code": "x"}, "problem", "undefined"},
		{"empty", map[string]any{"code": "  "}, "problem", "code is empty"},
		{"timeout too long", map[string]any{"code": "1", "timeout_seconds": 999}, "problem", "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, sc := callTool(t, c, "trestle_eval", tt.args)
			if sc["state"] != tt.wantState || !strings.Contains(textOf(res), tt.want) {
				t.Fatalf("state %v, text %q; want %s containing %q", sc["state"], textOf(res), tt.wantState, tt.want)
			}
		})
	}
}

func TestEvalAndRunRefusedByPolicy(t *testing.T) {
	c, _ := servicesClient(t, permission.PolicyDeny)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"trestle_eval", map[string]any{"code": "1+1"}},
		{"trestle_run", map[string]any{"task": "echo"}},
	} {
		res, sc := callTool(t, c, tc.tool, tc.args)
		if !res.IsError || sc["state"] != "refused" || !strings.Contains(textOf(res), "policy denies") {
			t.Fatalf("%s: %v %q", tc.tool, sc, textOf(res))
		}
	}
}

// progressLog gathers the progress messages c receives.
type progressLog struct {
	mu       sync.Mutex
	messages []string
}

func (l *progressLog) listen(c *client.Client) {
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			l.mu.Lock()
			l.messages = append(l.messages, n.Params.AdditionalFields["message"].(string))
			l.mu.Unlock()
		}
	})
}

func (l *progressLog) got() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.messages)
}

func runWithProgress(c *client.Client, args map[string]any) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name = "trestle_run"
	req.Params.Arguments = args
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok"}
	return c.CallTool(context.Background(), req)
}

// TestRunToolStreamsProgressBeforeTheResult: a run's output reaches a
// caller with a progress token while the run goes on, and nothing comes
// after the result.
func TestRunToolStreamsProgressBeforeTheResult(t *testing.T) {
	c, _, root := servicesClientRoot(t, permission.PolicyAllow)
	var seen progressLog
	seen.listen(c)
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		res, err := runWithProgress(c, map[string]any{"task": "gated", "wait_seconds": 60})
		answered <- answer{res, err}
	}()
	testfix.Wait(t, 30*time.Second, "a progress notification with the run's first line", func() bool {
		return slices.Contains(seen.got(), "one")
	})
	os.WriteFile(filepath.Join(root, "gate"), nil, 0o644)
	a := <-answered
	if a.err != nil {
		t.Fatal(a.err)
	}
	sc := a.res.StructuredContent.(map[string]any)
	if sc["run_state"] != "passed" || !strings.Contains(sc["output"].(string), "one\ntwo") {
		t.Fatalf("result %v", sc)
	}
	before := seen.got()
	callTool(t, c, "trestle_tasks", nil) // any notification sent after the result is on the wire by this answer
	if after := seen.got(); len(after) != len(before) {
		t.Fatalf("progress after the result: %q", after[len(before):])
	}
}

// TestRunEndingAtOnceSendsNoProgress: a run that ends before its output
// would go out as progress sends none, not a last chunk just before the
// result that carries the same lines (the TypeScript SDK drops such a
// chunk about half the time).
func TestRunEndingAtOnceSendsNoProgress(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = time.Minute // every run here ends well within it
	c, _ := servicesClient(t, permission.PolicyAllow)
	var seen progressLog
	seen.listen(c)
	res, err := runWithProgress(c, map[string]any{"task": "echo"})
	if err != nil {
		t.Fatal(err)
	}
	sc := res.StructuredContent.(map[string]any)
	if sc["run_state"] != "failed" || sc["exit_code"] != float64(3) || !strings.Contains(sc["output"].(string), "one\ntwo") {
		t.Fatalf("result %v", sc)
	}
	callTool(t, c, "trestle_tasks", nil)
	if got := seen.got(); len(got) != 0 {
		t.Fatalf("progress for a run whose result followed at once: %q", got)
	}
}

func TestRunToolBusyStatusAndCancel(t *testing.T) {
	c, sv := servicesClient(t, permission.PolicyAllow)
	res, sc := callTool(t, c, "trestle_run", map[string]any{"task": "slow", "wait_seconds": 0})
	if res.IsError || sc["run_state"] != "running" {
		t.Fatalf("start slow: %v", sc)
	}
	id := sc["run_id"].(string)
	res, sc = callTool(t, c, "trestle_run", map[string]any{"task": "echo"})
	if sc["state"] != "busy" || !strings.Contains(textOf(res), `"slow"`) {
		t.Fatalf("second run: %v %q", sc, textOf(res))
	}
	if run, ok := sv.Tasks.Get(id); !ok || run.State() != task.StateRunning {
		t.Fatalf("run %s is not running", id)
	}
	// Cancelling a waiting call ends only the wait: the run it started goes
	// on (it was stopped, and a client's timeout took the run with it).
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	sv.Tasks.Stop()
	<-sv.Tasks.Last().Done()
	req := mcp.CallToolRequest{}
	req.Params.Name = "trestle_run"
	req.Params.Arguments = map[string]any{"task": "slow"}
	c.CallTool(ctx, req) // returns when ctx ends; the client sends notifications/cancelled
	waitFor(t, 30*time.Second, "the cancelled call's run starts", func() bool { return sv.Tasks.Last().ID != id })
	run := sv.Tasks.Last()
	res, sc = callTool(t, c, "trestle_run_status", map[string]any{"run_id": run.ID, "wait_seconds": 1})
	if sc["run_state"] != "running" || !strings.Contains(textOf(res), "still running") {
		t.Fatalf("the cancelled call's run: %v %q", sc, textOf(res))
	}
	sv.Tasks.Stop()
	<-run.Done()
}

// TestRunDescriptionExampleIsTrue runs the call trestle_run's description
// gives as its example, against a real go test on a project where ./...
// would also run a failing package: only the asked package runs, with the
// command line the description promises.
func TestRunDescriptionExampleIsTrue(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	c, _, root := servicesClientRoot(t, permission.PolicyAllow)
	srvTools := allTools(t)
	desc := srvTools["trestle_run"].Tool.Description
	m := regexp.MustCompile(`e\.g\. (\{.*\}) runs (go test [^\n]*)$`).FindStringSubmatch(desc)
	if m == nil {
		t.Fatalf("no example with its command line in %q", desc)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(m[1]), &args); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"app/parse.go":        "package app\n\nfunc Parse(s string) int { return len(s) }\n",
		"app/parse_test.go":   "package app\n\nimport \"testing\"\n\nfunc TestParse(t *testing.T) {\n\tt.Log(\"parsing\")\n\tif Parse(\"ab\") != 2 {\n\t\tt.Fatal(\"bad\")\n\t}\n}\n\nfunc TestOther(t *testing.T) { t.Fatal(\"not asked for\") }\n",
		"other/other_test.go": "package other\n\nimport \"testing\"\n\nfunc TestBroken(t *testing.T) { t.Fatal(\"not asked for\") }\n",
	} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)
	}
	args["wait_seconds"] = 300
	res, sc := callTool(t, c, "trestle_run", args)
	out, _ := sc["output"].(string)
	if res.IsError || sc["command"] != m[2] || sc["run_state"] != "passed" || strings.Contains(out, "not asked for") ||
		len(sc["problems"].([]any)) != 0 {
		t.Fatalf("command %q (want %q), state %v:\n%s", sc["command"], m[2], sc["run_state"], textOf(res))
	}
}

func TestEvalToolSaysWhatRanAndReplaysLostState(t *testing.T) {
	c, _ := servicesClient(t, permission.PolicyAllow)
	steps := []struct {
		name       string
		args       map[string]any
		state      string
		lost       bool
		replayable float64
		replayed   float64
		want       string // in the text
	}{
		{"defines state", map[string]any{"code": "x := 40"}, "done", false, 0, 0, "worker: interpreter"},
		{"nothing to replay yet", map[string]any{"replay": true}, "none", false, 0, 0, "nothing to replay"},
		{"deadline loses it", map[string]any{"code": "for {}", "timeout_seconds": 1}, "problem", true, 1, 0, "replay: true"},
		{"fresh worker", map[string]any{"code": "x"}, "problem", false, 1, 0, "undefined"},
		{"replay then code", map[string]any{"replay": true, "code": "x + 2"}, "done", false, 0, 1, "= 42 (int)"},
		{"replay is spent", map[string]any{"replay": true}, "none", false, 0, 0, "nothing to replay"},
	}
	for _, st := range steps {
		res, sc := callTool(t, c, "trestle_eval", st.args)
		text := textOf(res)
		if sc["state"] != st.state || !strings.Contains(text, st.want) {
			t.Fatalf("%s: state %v, text %q; want %s containing %q", st.name, sc["state"], text, st.state, st.want)
		}
		if st.state == "none" {
			continue
		}
		if sc["lost"] != st.lost || num(sc["replayable"]) != st.replayable || num(sc["replayed"]) != st.replayed {
			t.Errorf("%s: lost %v replayable %v replayed %v; want %v %v %v (%v)", st.name, sc["lost"], sc["replayable"], sc["replayed"], st.lost, st.replayable, st.replayed, sc)
		}
		if w, _ := sc["worker"].(map[string]any); w["kind"] != "interpreter" {
			t.Errorf("%s: worker %v, want the interpreter", st.name, sc["worker"])
		}
	}
}

// TestCancelledEvalNamesTheLostStateNextTime: an agent cancels an
// evaluation (as its client's timeout does); the worker is killed and its
// state lost, and that answer is never read, so the next evaluation's
// answer says which earlier inputs' state went with it, once.
func TestCancelledEvalNamesTheLostStateNextTime(t *testing.T) {
	c, sv := servicesClient(t, permission.PolicyAllow)
	if res, _ := callTool(t, c, "trestle_eval", map[string]any{"code": "x := 41"}); res.IsError {
		t.Fatal(textOf(res))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelled := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "trestle_eval"
		req.Params.Arguments = map[string]any{"code": "for {}", "timeout_seconds": 60}
		_, err := c.CallTool(ctx, req)
		cancelled <- err
	}()
	testfix.Wait(t, 30*time.Second, "the endless evaluation to run", func() bool {
		for _, w := range sv.Eval.Status() {
			if w.Selection == "default" && w.State == eval.StateRunning {
				return true
			}
		}
		return false
	})
	cancel()
	if err := <-cancelled; err == nil {
		t.Fatal("the cancelled call answered")
	}
	// The next evaluation waits for the cancelled one to end, then runs fresh.
	res, sc := callTool(t, c, "trestle_eval", map[string]any{"code": "1 + 1"})
	text := textOf(res)
	if res.IsError || sc["value"] != "2" || !strings.Contains(text, "was restarted since an answer last said so") ||
		!strings.Contains(text, "the state of 1 earlier input was lost: `x := 41`") || !strings.Contains(text, "replay: true") {
		t.Fatalf("the answer after a cancelled evaluation: %q", text)
	}
	res, _ = callTool(t, c, "trestle_eval", map[string]any{"code": "2 + 2"})
	if text := textOf(res); strings.Contains(text, "restarted") {
		t.Fatalf("the loss is told twice: %q", text)
	}
}

// num is a JSON number, 0 when absent.
func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// TestReplayAsksWithTheInputsItRuns: under the ask policy, a replay shows
// the person every input it would evaluate again, and a refusal runs
// nothing and keeps them for later.
func TestReplayAsksWithTheInputsItRuns(t *testing.T) {
	project := newTestProject(t)
	ask := &recordingAsk{d: permission.AllowOnce}
	sv := services.Services{
		Eval: eval.NewManager(eval.ManagerOptions{Root: project.Root, Module: project.Module, WorkerCommand: testWorkerCommand}),
		Gate: permission.NewGate(permission.PolicyAsk, ask.ask),
	}
	t.Cleanup(sv.Eval.Close)
	srv := NewServer(testAgent(project, nil, sv), quiet())
	ctx := context.Background()
	srv.eval(ctx, evalParams{Code: "secret := 1"})
	if res := srv.eval(ctx, evalParams{Code: "for {}", TimeoutSeconds: 1}); !res.IsError {
		t.Fatal("the endless loop should have hit its deadline")
	}
	ask.mu.Lock()
	ask.d, ask.rs = permission.Deny, nil
	ask.mu.Unlock()
	res := srv.eval(ctx, evalParams{Replay: true, Code: "secret + 1"})
	if !res.IsError || !strings.HasPrefix(textOf(res), "refused") {
		t.Fatalf("a denied replay: %q", textOf(res))
	}
	if rs := ask.requests(); len(rs) != 1 || rs[0].Detail != "secret := 1\n\nsecret + 1" {
		t.Fatalf("the person was asked %+v; want the replayed input and the code", rs)
	}
	if lost := sv.Eval.Lost(""); len(lost) != 1 {
		t.Fatalf("a refused replay must keep the inputs: %q", lost)
	}
	ask.mu.Lock()
	ask.d = permission.AllowOnce
	ask.mu.Unlock()
	if res := srv.eval(ctx, evalParams{Replay: true, Code: "secret + 1"}); res.IsError || !strings.Contains(textOf(res), "= 2 (int)") {
		t.Fatalf("an allowed replay: %q", textOf(res))
	}
}
