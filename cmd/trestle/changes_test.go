package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/workbench"
	"trestle/cmd/trestle/changes"
)

// changesEnv is a temp config dir for the binary, and a Manager on the
// same store file for the test project, as a window or headless server
// would have.
func changesEnv(t *testing.T) (env []string, dir string, m *changeset.Manager) {
	t.Helper()
	config := t.TempDir()
	dir = testProject(t)
	db, err := store.Open(filepath.Join(config, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	env = []string{"TRESTLE_CONFIG_DIR=" + config, "DISPLAY=", "LANG=en_US.UTF-8", "LC_ALL=", "LC_MESSAGES="}
	return env, dir, changeset.NewManager(db, p)
}

// diskText reads project files from disk, as `trestle changes` does.
func diskText(p *project.Project) changeset.ReadFunc {
	return workbench.Reader{Project: p}.Func(context.Background())
}

// proposeCalc proposes an edit of pkg/calc.go and a new file.
func proposeCalc(t *testing.T, m *changeset.Manager) changeset.ChangeSet {
	t.Helper()
	read := diskText(m.Project())
	cs, err := m.Propose(read, changeset.Proposal{
		Title: "Add Sub", Client: "claude-code", Description: "Adds **Sub** next to Add.",
		Changes: []changeset.Change{
			{Path: "pkg/calc.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "// Add adds.", NewText: "// Add adds two ints."}}},
			{Path: "pkg/sub.go", Action: changeset.ActionCreate, Content: "package pkg\n\nfunc Sub(a, b int) int { return a - b }\n"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// wantRefused checks a non-zero exit with one line on stderr holding want.
func wantRefused(t *testing.T, out string, err error, want string) {
	t.Helper()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1; output %q", err, out)
	}
	if !strings.Contains(out, want) || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("output %q; want one line with %q", out, want)
	}
}

func TestChangesListShowApply(t *testing.T) {
	env, dir, m := changesEnv(t)
	cs := proposeCalc(t, m)

	out, err := runTrestle(t, env, "changes", "list", dir)
	if err != nil || !strings.Contains(out, cs.ID) || !strings.Contains(out, "pending") || !strings.Contains(out, "Add Sub") {
		t.Fatalf("list: %v\n%s", err, out)
	}
	out, err = runTrestle(t, env, "changes", "show", cs.ID, dir)
	for _, want := range []string{"Adds **Sub** next to Add.", "--- a/pkg/calc.go", "+// Add adds two ints.", "+++ b/pkg/sub.go",
		"@@ -1,4 +1,4 @@ hunk 1: pending\n package pkg\n \n-// Add adds.\n+// Add adds two ints.\n", "@@ -0,0 +1,3 @@ hunk 1: pending\n+package pkg\n"} {
		if err != nil || !strings.Contains(out, want) {
			t.Fatalf("show lacks %q: %v\n%s", want, err, out)
		}
	}
	out, err = runTrestle(t, env, "changes", "apply", cs.ID, dir)
	if err != nil || !strings.Contains(out, "Applied "+cs.ID) {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "pkg/sub.go")); !strings.Contains(string(data), "func Sub") {
		t.Fatalf("pkg/sub.go after apply: %q", data)
	}
	out, err = runTrestle(t, env, "changes", "apply", cs.ID, dir)
	wantRefused(t, out, err, "it is applied, with nothing pending")
}

func TestChangesApplyConflictNamesFile(t *testing.T) {
	env, dir, m := changesEnv(t)
	cs := proposeCalc(t, m)
	if err := os.WriteFile(filepath.Join(dir, "pkg/calc.go"), []byte("package pkg\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runTrestle(t, env, "changes", "apply", cs.ID, dir)
	wantRefused(t, out, err, "pkg/calc.go was changed")
	if _, err := os.Stat(filepath.Join(dir, "pkg/sub.go")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("pkg/sub.go was written despite the conflict: %v", err)
	}
}

func TestChangesRejectWithReason(t *testing.T) {
	env, dir, m := changesEnv(t)
	cs := proposeCalc(t, m)
	out, err := runTrestle(t, env, "changes", "reject", cs.ID, "--reason", "use generics", dir)
	if err != nil || !strings.Contains(out, "Rejected "+cs.ID) {
		t.Fatalf("reject: %v\n%s", err, out)
	}
	got, err := m.Get(cs.ID)
	if err != nil || got.State != changeset.StateRejected || got.Reason != "use generics" {
		t.Fatalf("stored %q, reason %q, %v", got.State, got.Reason, err)
	}
	out, err = runTrestle(t, env, "changes", "reject", cs.ID, dir)
	wantRefused(t, out, err, "is rejected")
}

func TestChangesRefusals(t *testing.T) {
	env, dir, _ := changesEnv(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown id", []string{"apply", "cs-99", dir}, 1, "no such change set"},
		{"malformed id", []string{"show", "42", dir}, 1, `"42" is not like cs-12`},
		{"no id", []string{"apply"}, 2, "the change set ID is missing"},
		{"unknown command", []string{"merge", "cs-1"}, 2, `unknown command "merge"`},
		{"reason on apply", []string{"apply", "cs-1", "--reason", "x"}, 2, "--reason goes with reject only"},
		{"missing dir", []string{"list", "/no/such/dir"}, 2, "no such folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runTrestle(t, env, append([]string{"changes"}, tt.args...)...)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tt.code || !strings.Contains(out, tt.want) ||
				strings.Count(strings.TrimSpace(out), "\n") != 0 {
				t.Fatalf("exit %v, output %q; want code %d and one line with %q", err, out, tt.code, tt.want)
			}
		})
	}
	out, err := runTrestle(t, env, "changes", "list", dir)
	if err != nil || !strings.Contains(out, "No change sets") {
		t.Fatalf("empty list: %v %q", err, out)
	}
}

// proposeLong writes pkg/long.go (twelve lines) and proposes a change with
// two hunks in it and an edit of pkg/calc.go.
func proposeLong(t *testing.T, dir string, m *changeset.Manager) (changeset.ChangeSet, string, string) {
	t.Helper()
	long := "package pkg\n\n// a\n// b\n// c\n// d\n// e\n// f\n// g\n// h\n// i\n// j\n"
	if err := os.WriteFile(filepath.Join(dir, "pkg/long.go"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	onlySecond := strings.Replace(long, "// j\n", "// J\n", 1)
	both := strings.Replace(onlySecond, "// a\n", "// A\n", 1)
	cs, err := m.Propose(diskText(m.Project()), changeset.Proposal{Title: "Shout", Client: "claude-code", Changes: []changeset.Change{
		{Path: "pkg/long.go", Action: changeset.ActionReplace, Content: both},
		{Path: "pkg/calc.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "// Add adds.", NewText: "// Add adds two ints."}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return cs, onlySecond, both
}

func fileIs(t *testing.T, path, want string) {
	t.Helper()
	if data, err := os.ReadFile(path); err != nil || string(data) != want {
		t.Fatalf("%s: %v\n got %q\nwant %q", path, err, data, want)
	}
}

// TestChangesApplyHunksThenTheRest: show numbers the hunks of each file;
// apply --hunk applies just that one and says what is still pending;
// --file applies a whole file; a plain apply applies the rest later.
func TestChangesApplyHunksThenTheRest(t *testing.T) {
	env, dir, m := changesEnv(t)
	cs, onlySecond, both := proposeLong(t, dir, m)
	out, err := runTrestle(t, env, "changes", "show", cs.ID, dir)
	for _, want := range []string{"@@ -1,6 +1,6 @@ hunk 1: pending\n package pkg\n \n-// a\n+// A\n",
		"@@ -9,4 +9,4 @@ hunk 2: pending\n // g\n // h\n // i\n-// j\n+// J\n", "@@ -1,4 +1,4 @@ hunk 1: pending\n package pkg\n"} {
		if err != nil || !strings.Contains(out, want) {
			t.Fatalf("show lacks %q: %v\n%s", want, err, out)
		}
	}
	out, err = runTrestle(t, env, "changes", "apply", cs.ID, "--hunk", "pkg/long.go:2", dir)
	if err != nil || !strings.Contains(out, "Applied "+cs.ID+": pkg/long.go (hunk 2).") ||
		!strings.Contains(out, "Still pending: pkg/long.go (hunk 1), pkg/calc.go.") {
		t.Fatalf("apply --hunk: %v\n%s", err, out)
	}
	fileIs(t, filepath.Join(dir, "pkg/long.go"), onlySecond)
	if out, _ := runTrestle(t, env, "changes", "show", cs.ID, dir); !strings.Contains(out, "hunk 1: pending") || !strings.Contains(out, "hunk 2: applied") ||
		!strings.Contains(out, "still pending: pkg/long.go (hunk 1), pkg/calc.go\n") || !strings.Contains(out, "claude-code: proposed this change set") {
		t.Fatalf("show after apply --hunk:\n%s", out)
	}
	for _, bad := range []struct{ hunk, want string }{
		{"pkg/long.go:9", "pkg/long.go has no hunk 9: it has 2"},
		{"pkg/long.go:2", "hunk 2 of pkg/long.go is applied already"},
		{"pkg/long.go", `"pkg/long.go" is not like PATH:N`},
		{"nope.go:1", "nope.go is not a file of this change set"},
	} {
		out, err := runTrestle(t, env, "changes", "apply", cs.ID, "--hunk", bad.hunk, dir)
		wantRefused(t, out, err, bad.want)
	}
	out, err = runTrestle(t, env, "changes", "apply", cs.ID, "--file", "pkg/calc.go", dir)
	if err != nil || !strings.Contains(out, "Still pending: pkg/long.go (hunk 1).") {
		t.Fatalf("apply --file: %v\n%s", err, out)
	}
	out, err = runTrestle(t, env, "changes", "apply", cs.ID, dir)
	if err != nil || strings.Contains(out, "Still pending") {
		t.Fatalf("apply the rest: %v\n%s", err, out)
	}
	fileIs(t, filepath.Join(dir, "pkg/long.go"), both)
	if got, _ := m.Get(cs.ID); got.State != changeset.StateApplied {
		t.Fatalf("set is %s after every hunk", got.State)
	}
}

// TestChangesRejectAFileWithAReason: reject --file rejects one file with
// the reason; the rest applies after.
func TestChangesRejectAFileWithAReason(t *testing.T) {
	env, dir, m := changesEnv(t)
	cs, _, _ := proposeLong(t, dir, m)
	out, err := runTrestle(t, env, "changes", "reject", cs.ID, "--file", "pkg/calc.go", "--reason", "keep the short comment", dir)
	if err != nil || !strings.Contains(out, "Rejected in "+cs.ID+": pkg/calc.go: keep the short comment.") {
		t.Fatalf("reject --file: %v\n%s", err, out)
	}
	if _, err := runTrestle(t, env, "changes", "apply", cs.ID, dir); err != nil {
		t.Fatal(err)
	}
	got, _ := m.Get(cs.ID)
	if f := got.File("pkg/calc.go"); got.State != changeset.StatePartlyApplied || f.State != changeset.FileRejected || f.Reason != "keep the short comment" {
		t.Fatalf("set %s, pkg/calc.go %s %q", got.State, f.State, f.Reason)
	}
}

// inTerminal runs the binary under a pseudo-terminal (util-linux script),
// typing input.
func inTerminal(t *testing.T, env []string, input string, args ...string) (string, error) {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give the binary a terminal")
	}
	line := shellQuote(trestleBin(t))
	for _, a := range args {
		line += " " + shellQuote(a)
	}
	cmd := exec.Command(script, "-qec", line, "/dev/null")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.CombinedOutput()
	return strings.ReplaceAll(string(out), "\r\n", "\n"), err
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestChangesRevertAsksFirst: revert says what it will do and asks on a
// terminal (no: nothing changes; yes: reverted); without a terminal it is
// refused unless --yes; undo-revert applies it again.
func TestChangesRevertAsksFirst(t *testing.T) {
	env, dir, m := changesEnv(t)
	cs := proposeCalc(t, m)
	calc := filepath.Join(dir, "pkg/calc.go")
	before, _ := os.ReadFile(calc)
	if out, err := runTrestle(t, env, "changes", "apply", cs.ID, dir); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	applied, _ := os.ReadFile(calc)
	out, err := runTrestle(t, env, "changes", "revert", cs.ID, dir) // stdin is /dev/null: no terminal
	wantRefused(t, out, err, "no terminal to ask on")
	fileIs(t, calc, string(applied))

	out, err = inTerminal(t, env, "n\n", "changes", "revert", cs.ID, dir)
	if err != nil || !strings.Contains(out, "pkg/calc.go: back to its text before the apply") ||
		!strings.Contains(out, "pkg/sub.go: removed (the apply created it)") || !strings.Contains(out, "Not reverted.") {
		t.Fatalf("revert answered no: %v\n%s", err, out)
	}
	fileIs(t, calc, string(applied))
	out, err = inTerminal(t, env, "y\n", "changes", "revert", cs.ID, dir)
	if err != nil || !strings.Contains(out, "Reverted "+cs.ID) {
		t.Fatalf("revert answered yes: %v\n%s", err, out)
	}
	fileIs(t, calc, string(before))
	if _, err := os.Stat(filepath.Join(dir, "pkg/sub.go")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("pkg/sub.go after the revert: %v", err)
	}

	out, err = runTrestle(t, env, "changes", "undo-revert", cs.ID, dir)
	if err != nil || !strings.Contains(out, "Undid the revert of "+cs.ID) {
		t.Fatalf("undo-revert: %v\n%s", err, out)
	}
	fileIs(t, calc, string(applied))
	out, err = runTrestle(t, env, "changes", "revert", "--yes", cs.ID, dir)
	if err != nil || !strings.Contains(out, "Reverted "+cs.ID) {
		t.Fatalf("revert --yes: %v\n%s", err, out)
	}
	fileIs(t, calc, string(before))
	out, _ = runTrestle(t, env, "changes", "show", cs.ID, dir)
	for _, want := range []string{"person: applied", "person: reverted", "person: revert undone"} {
		if !strings.Contains(out, want) {
			t.Errorf("show's history lacks %q:\n%s", want, out)
		}
	}
}

// TestChangesHelp: --help, -h and help print the usage of every
// subcommand, and help ACTION and ACTION --help print that one's.
func TestChangesHelp(t *testing.T) {
	env, dir, _ := changesEnv(t)
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}} {
		out, err := runTrestle(t, env, append([]string{"changes"}, args...)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		for _, a := range changes.Actions() {
			if !strings.Contains(out, "trestle changes "+a) {
				t.Errorf("changes %v lacks %s:\n%s", args, a, out)
			}
		}
	}
	for _, a := range changes.Actions() {
		for _, args := range [][]string{{"help", a}, {a, "--help"}, {a, "cs-1", "-h", dir}} {
			out, err := runTrestle(t, env, append([]string{"changes"}, args...)...)
			if err != nil || !strings.HasPrefix(out, "trestle changes "+a+" ") || strings.Contains(out, "Review change sets") {
				t.Errorf("changes %v: %v\n%s", args, err, out)
			}
		}
	}
	out, err := runTrestle(t, env, "changes", "help", "merge")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(out, `unknown command "merge"`) {
		t.Fatalf("help merge: %v %q", err, out)
	}
}
