package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/store"
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
	for _, want := range []string{"Adds **Sub** next to Add.", "--- a/pkg/calc.go", "+// Add adds two ints.", "+++ b/pkg/sub.go"} {
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
	wantRefused(t, out, err, "it is applied, not pending")
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
