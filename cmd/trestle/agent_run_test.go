package main

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/internal/testfix"
)

// TestAgentRunTurnsEveryWriteIntoOneChangeSet runs the scripted ACP agent
// through `trestle agent run`: it writes a.go through fs/write_text_file,
// b.go on disk and c.go from a shell in a terminal, is refused the
// permission it asks for, and tries six ways to write the real project.
// The project (a git repository with an uncommitted change) is byte for
// byte unchanged; one pending change set holds the three files and
// nothing else; no process the agent started is left; applying two of
// its files hunk by hunk writes those two only.
func TestAgentRunTurnsEveryWriteIntoOneChangeSet(t *testing.T) {
	testfix.RequireBwrap(t)
	agent := testfix.ACPAgent(t)
	dir := testfix.Project(t, map[string]string{"go.mod": "module p\n\ngo 1.22\n", "p.go": "package p\n"})
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "start")
	testfix.WriteFiles(t, dir, map[string]string{"p.go": "package p\n\n// an uncommitted change\n"})
	before := treeSums(t, dir)

	marker := "acp-linger-" + strconv.Itoa(os.Getpid())
	cmd := exec.Command(trestleBin(t), "agent", "run", "--agent", agent, "--prompt", "work", dir)
	paths, err := userPaths() // the child's, as it has this test's isolated HOME
	if err != nil {
		t.Fatal(err)
	}
	testfix.WriteFiles(t, paths.registry, map[string]string{"12345.json": `{"token":"secret"}`}) // a window's entry
	cmd.Env = append(os.Environ(), "TRESTLE_TEST_PROJECT="+dir, "TRESTLE_TEST_MARKER="+marker, "TRESTLE_TEST_REGISTRY="+paths.registry)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("trestle agent run: %v\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
	}
	out := stdout.String()
	for _, want := range []string{"[plan]", "mcp server trestle: trestle --mcp ", "writing three files", "[tool call-a] Write a.go", "permission: rejected",
		"[terminal term-1] $ sh -c printf", "[terminal term-1] wrote c.go", "[terminal term-1] exit 0", "[turn ended: end_turn]"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
	for _, way := range []string{"fs-absolute", "fs-dotdot", "fs-symlink", "disk-absolute", "disk-symlink", "shell-absolute", "shell-hardlink", "read-registry"} {
		if !strings.Contains(out, "escape "+way+": refused") {
			t.Errorf("escape %s was not refused:\n%s", way, out)
		}
	}
	if after := treeSums(t, dir); !maps.Equal(before, after) {
		t.Errorf("the project changed:\nbefore %v\nafter  %v", before, after)
	}

	lines := strings.Split(strings.TrimSpace(out), "\n")
	id := lines[len(lines)-1]
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths, err = userPaths()
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(paths.store)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := changeset.NewManager(db, p).Full(id)
	if err != nil {
		t.Fatalf("change set %q (the last line of the transcript): %v", id, err)
	}
	var files []string
	for _, f := range cs.Files {
		files = append(files, f.Path+":"+f.Action+":"+strings.TrimSpace(f.New))
	}
	want := []string{"a.go:create:package p\n\nconst A = 1", "b.go:create:package p\n\nconst B = 2", "c.go:create:package p\n\nconst C = 3"}
	if cs.State != changeset.StatePending || !slices.Equal(files, want) {
		t.Errorf("change set %s is %s with %q; want pending with %q", id, cs.State, files, want)
	}
	testfix.WaitNoProcess(t, 15*time.Second, marker)

	// The person applies two of the three, hunk by hunk; b.go waits.
	apply := exec.Command(trestleBin(t), "changes", "apply", id, "--hunk", "a.go:1", "--hunk", "c.go:1", dir)
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("trestle changes apply: %v\n%s", err, out)
	}
	for name, want := range map[string]string{"a.go": "package p\n\nconst A = 1\n", "c.go": "package p\n\nconst C = 3\n", "b.go": ""} {
		if data, _ := os.ReadFile(filepath.Join(dir, name)); string(data) != want {
			t.Errorf("%s after the apply: %q; want %q", name, data, want)
		}
	}
	if cs, err = changeset.NewManager(db, p).Get(id); err != nil || cs.File("b.go") == nil || !cs.File("b.go").CanApply() {
		t.Errorf("b.go is no longer pending in %s: %+v, %v", id, cs, err)
	}
}

// treeSums is the sha256 of every file under dir, .git included.
func treeSums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	sums := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		sums[path] = sha256.Sum256(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}

// TestAgentRunPrintsAgentStringsEscaped: `trestle agent run` prints an
// agent's plan, tool call and permission request whose statuses, kinds and
// titles hold terminal escapes, newlines and bidi overrides with every
// such character escaped: the transcript goes to a terminal.
func TestAgentRunPrintsAgentStringsEscaped(t *testing.T) {
	testfix.RequireBwrap(t)
	agent := testfix.ACPAgent(t)
	dir := testfix.Project(t, map[string]string{"go.mod": "module p\n\ngo 1.22\n"})
	cmd := exec.Command(trestleBin(t), "agent", "run", "--agent", agent, "--prompt", "hostile", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("trestle agent run: %v\nstdout:\n%s\nstderr:\n%s", err, &stdout, &stderr)
	}
	out := stdout.String()
	if i := strings.IndexFunc(out, func(r rune) bool { return r != '\n' && (r < ' ' || r == 0x7f || r == '\u202e') }); i >= 0 {
		t.Errorf("the transcript prints %q raw:\n%q", out[i:i+1], out)
	}
	for _, want := range []string{`[pending\x1b[2J`, `(running\x1b[2J`, "permission: rejected"} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out)
		}
	}
}
