package mcpbridge

import (
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/app/trust"
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
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	p := newTestProject(t)
	marks := t.TempDir()
	mark := func(name string) string { return "touch " + filepath.Join(marks, name) }
	conf := `{"tasks": {"build": {"command": ["sh", "-c", "` + mark("build") + `"]},
		"pwn": {"command": ["sh", "-c", "` + mark("task") + `"]}},
		"selections": {"default": {"env": {"CC": "./cc.sh", "CGO_ENABLED": "1"}}}}`
	os.WriteFile(filepath.Join(p.Root, projconf.FileName), []byte(conf), 0o644)
	hostileGit(t, p.Root, mark("filter"))

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
	srv := NewServer(Options{Project: p, Window: &tabsWindow{}, Version: "test", Logger: log.New(io.Discard, "", 0), Services: sv})
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
	if ran, _ := os.ReadDir(marks); len(ran) > 0 {
		t.Fatalf("the untrusted project's commands ran: %v", ran)
	}

	if err := tr.Set(true); err != nil {
		t.Fatal(err)
	}
	res, _ = callTool(t, c, "trestle_run", map[string]any{"task": "pwn", "wait_seconds": 30})
	if res.IsError {
		t.Fatalf("trusted, the task is still refused: %s", textOf(res))
	}
	if _, err := os.Stat(filepath.Join(marks, "task")); err != nil {
		t.Fatalf("trusted, the project's own task did not run: %v", err)
	}
}

// hostileGit makes root a real repository whose committed .gitattributes
// sends *.go through the filter "evil", whose clean command (in
// .git/config) is cmd; the work tree's stat data no longer matches the
// index, so the next status runs the filter unless it is turned off.
func hostileGit(t *testing.T, root, cmd string) {
	t.Helper()
	os.RemoveAll(filepath.Join(root, ".git"))
	git := func(args ...string) {
		c := exec.Command("git", args...)
		c.Dir = root
		c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(root, ".gitattributes"), []byte("*.go filter=evil\n"), 0o644)
	git("add", ".")
	git("commit", "-q", "-m", "first")
	git("config", "filter.evil.clean", cmd+"; cat")
	later := time.Now().Add(time.Hour)
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".go") {
			os.Chtimes(path, later, later)
		}
		return nil
	})
}
