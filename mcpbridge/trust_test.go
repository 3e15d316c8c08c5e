package mcpbridge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/app/trust"
	"trestle/internal/testfix"
)

// TestUntrustedProjectWithholdsWhatItsFilesConfigure is issue 20 through
// a real MCP client, under deny as the attack was: a cloned project whose
// git repository routes *.go through a filter, and whose .trestle.json
// redefines build and adds a task, both as sh -c commands, and gives a
// selection CC=./cc.sh with CGO_ENABLED=1. Untrusted, trestle_workbench
// runs no git filter and says what is off and what is withheld;
// trestle_run of the file's task answers refused and says how to trust;
// build is go build again. Trusted by the person, the task runs.
func TestUntrustedProjectWithholdsWhatItsFilesConfigure(t *testing.T) {
	p := newTestProject(t)
	marks := testfix.NewMarks(t)
	mark := func(name string) string { return "touch " + marks.Path(name) } // a path of no spaces or quotes: JSON as it is
	conf := `{"tasks": {"build": {"command": ["sh", "-c", "` + mark("build") + `"]},
		"pwn": {"command": ["sh", "-c", "` + mark("task") + `"]}},
		"selections": {"default": {"env": {"CC": "./cc.sh", "CGO_ENABLED": "1"}}}}`
	os.WriteFile(filepath.Join(p.Root, projconf.FileName), []byte(conf), 0o644)
	testfix.HostileGit(t, p.Root, marks)

	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := trust.Load(p.Root, db, false)
	if err != nil {
		t.Fatal(err)
	}
	sv := services.Services{
		Tasks:  task.NewRunner(p.Root),
		Gate:   permission.NewGate(permission.PolicyDeny, nil),
		Config: tr.Config(func() (projconf.Config, error) { return projconf.Load(p.Root) }),
		Trust:  tr,
	}
	srv := NewServer(testAgent(p, &tabsWindow{}, sv), quiet())
	c, _ := connectStdioInit(t, srv, "trust-test")

	res, sc := callTool(t, c, "trestle_workbench", map[string]any{})
	tinfo, _ := sc["trust"].(map[string]any)
	if res.IsError || tinfo == nil || tinfo["trusted"] != false || !strings.Contains(tinfo["withheld"].(string), "tasks build, pwn") ||
		!strings.Contains(textOf(res), "The project is untrusted") || !strings.Contains(textOf(res), "environment CC=./cc.sh CGO_ENABLED=1") {
		t.Fatalf("workbench of an untrusted project: %s\n%v", textOf(res), sc["trust"])
	}
	if sc["git"] == nil {
		t.Fatalf("no git status for the untrusted project: %s", textOf(res))
	}

	// The gate would refuse any run under deny; a withheld task is refused
	// first, for its own reason. Under allow, build is the default.
	res, sc = callTool(t, c, "trestle_run", map[string]any{"task": "pwn"})
	if !res.IsError || sc["state"] != stateRefused || !strings.Contains(textOf(res), "untrusted") ||
		!strings.Contains(textOf(res), "--trust") || !strings.Contains(textOf(res), "Trust") {
		t.Fatalf("trestle_run of a withheld task: %s", textOf(res))
	}
	sv.Gate.SetPolicy(permission.PolicyAllow)
	res, _ = callTool(t, c, "trestle_tasks", map[string]any{})
	if !strings.Contains(textOf(res), "pwn: sh -c") || !strings.Contains(textOf(res), "(not run)") {
		t.Fatalf("trestle_tasks does not show the withheld task: %s", textOf(res))
	}
	res, sc = callTool(t, c, "trestle_run", map[string]any{"task": "build", "args": []any{"./pkg"}, "wait_seconds": 120})
	if sc["command"] != "go build ./pkg" || !strings.Contains(textOf(res), "CGO_ENABLED=1 was not used") ||
		!strings.Contains(textOf(res), "was not run but the default go build") {
		t.Fatalf("untrusted build ran %v: %s", sc["command"], textOf(res))
	}
	if ran := marks.Left(); len(ran) > 0 {
		t.Fatalf("the untrusted project's commands ran: %v", ran)
	}

	if err := tr.Set(true); err != nil {
		t.Fatal(err)
	}
	res, _ = callTool(t, c, "trestle_run", map[string]any{"task": "pwn", "wait_seconds": 30})
	if res.IsError {
		t.Fatalf("trusted, the task is still refused: %s", textOf(res))
	}
	if _, err := os.Stat(marks.Path("task")); err != nil {
		t.Fatalf("trusted, the project's own task did not run: %v", err)
	}
}

// TestAgentTestsNeedTrust is issue 20's default Test task through a real
// MCP client: in an untrusted project, trestle_run test ran go test, and
// so the project's tests, TestMain and init functions, under allow and
// without a word. It is refused, saying the person must trust the project
// and how, before the person is asked anything; build and vet run. Once
// the person trusts the project, the tests run.
func TestAgentTestsNeedTrust(t *testing.T) {
	p := newTestProject(t)
	marks := testfix.NewMarks(t)
	testfix.WriteFiles(t, p.Root, map[string]string{"pkg/pkg_test.go": marks.TestCode("pkg")})
	tr, err := trust.Load(p.Root, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	ask := &recordingAsk{d: permission.AllowOnce}
	sv := services.Services{
		Tasks:  task.NewRunner(p.Root),
		Gate:   permission.NewGate(permission.PolicyAsk, ask.ask),
		Config: tr.Config(func() (projconf.Config, error) { return projconf.Load(p.Root) }),
		Trust:  tr,
	}
	srv := NewServer(testAgent(p, &tabsWindow{}, sv), quiet())
	c, _ := connectStdioInit(t, srv, "test-runner")

	res, sc := callTool(t, c, "trestle_run", map[string]any{"task": "test", "args": []any{"./pkg"}, "wait_seconds": 120})
	for _, want := range []string{"go test ./pkg", "runs the project's own code", "untrusted", "must trust the project", "--trust"} {
		if !res.IsError || sc["state"] != stateRefused || !strings.Contains(textOf(res), want) {
			t.Fatalf("trestle_run test in an untrusted project (want refused, saying %q): %s", want, textOf(res))
		}
	}
	if n := len(ask.requests()); n != 0 {
		t.Fatalf("the person was asked %d times about a run that is refused anyway", n)
	}
	for _, name := range []string{"build", "vet"} {
		res, sc = callTool(t, c, "trestle_run", map[string]any{"task": name, "wait_seconds": 120})
		if res.IsError || sc["run_state"] != "passed" {
			t.Fatalf("trestle_run %s in an untrusted project: %s", name, textOf(res))
		}
	}
	if left := marks.Left(); len(left) > 0 {
		t.Fatalf("the untrusted project's code ran: %v", left)
	}

	if err := tr.Set(true); err != nil {
		t.Fatal(err)
	}
	res, sc = callTool(t, c, "trestle_run", map[string]any{"task": "test", "args": []any{"./pkg"}, "wait_seconds": 120})
	if res.IsError || sc["run_state"] != "passed" {
		t.Fatalf("trusted, trestle_run test: %s", textOf(res))
	}
	if left := marks.Left(); len(left) != 3 {
		t.Fatalf("trusted, go test left marks %v; want init, test and testmain", left)
	}
}
