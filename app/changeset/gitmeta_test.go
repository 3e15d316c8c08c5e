package changeset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
)

// TestProposeRefusesGitMetadata is the deny bypass through git: a change
// set that creates HEAD and a config with worktree = . and core.fsmonitor
// at the root would make the project folder a bare repository whose
// fsmonitor command `git status` runs. Every way of writing repository
// metadata, in any letter case, is refused and nothing is stored.
func TestProposeRefusesGitMetadata(t *testing.T) {
	config := "[core]\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"touch pwned\"\n"
	create := func(path, text string) Change { return Change{Path: path, Action: ActionCreate, Content: text} }
	tests := []struct {
		name    string
		files   map[string]string // already in the project
		changes []Change
	}{
		{"HEAD and config at the root", nil, []Change{create("HEAD", "ref: refs/heads/main\n"), create("config", config),
			create("objects/info/x", "x\n"), create("refs/heads/x", "x\n")}},
		{"lower-case head", nil, []Change{create("head", "ref: refs/heads/main\n"), create("config", config)}},
		{"HEAD in a sub folder", nil, []Change{create("sub/HEAD", "ref: refs/heads/main\n")}},
		{"commondir", nil, []Change{create("commondir", "../x\n")}},
		{".git folder in a sub folder", nil, []Change{create("vendor/x/.git/config", config)}},
		{".GIT in another case", nil, []Change{create("sub/.GIT/config", config)}},
		{".Git/hooks", nil, []Change{create(".Git/hooks/pre-commit", "#!/bin/sh\n")}},
		{"git~1 short name", nil, []Change{create("GIT~1/config", config)}},
		{".git with trailing dot", nil, []Change{create(".git./config", config)}},
		{"config beside an existing HEAD", map[string]string{"HEAD": "ref: refs/heads/main\n", "main.go": "package main\n"},
			[]Change{create("config", config)}},
		{"refs beside an existing HEAD in a folder", map[string]string{"testdata/bare/HEAD": "ref: refs/heads/main\n"},
			[]Change{create("testdata/bare/refs/heads/main", "0000000000000000000000000000000000000000\n")}},
		{"edit an existing config beside HEAD", map[string]string{"HEAD": "ref: refs/heads/main\n", "config": "[core]\n"},
			[]Change{{Path: "config", Action: ActionEdit, Edits: []Edit{{OldText: "[core]\n", NewText: config}}}}},
		{"the .git file of a worktree", nil, []Change{create("sub/.git", "gitdir: /tmp/evil\n")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"main.go": "package main\n"}
			for k, v := range tt.files {
				files[k] = v
			}
			p := newProject(t, files)
			m := newManager(t, p)
			_, err := m.Propose(diskReader(p), Proposal{Title: "innocent", Changes: tt.changes})
			if !errors.Is(err, errdefs.ErrInvalid) {
				t.Fatalf("proposal was not refused: %v", err)
			}
			if !strings.Contains(err.Error(), "git") {
				t.Errorf("refusal does not say it is git metadata: %v", err)
			}
			if list, _ := m.List(""); len(list) != 0 {
				t.Errorf("a refused proposal was stored: %v", list)
			}
		})
	}
}

// TestProposeAllowsOrdinaryNamesNearGitOnes keeps the check precise: Go
// projects have config packages, refs folders and files named index.
func TestProposeAllowsOrdinaryNamesNearGitOnes(t *testing.T) {
	p := newProject(t, map[string]string{"main.go": "package main\n"})
	m := newManager(t, p)
	var changes []Change
	for _, path := range []string{"config/config.go", "config.yaml", "internal/refs/refs.go", "objects/objects.go",
		"index.html", "headers.go", "docs/HEAD.md", ".github/workflows/ci.yml", ".gitignore", "mygit/x.go"} {
		changes = append(changes, Change{Path: path, Action: ActionCreate, Content: "x\n"})
	}
	if _, err := m.Propose(diskReader(p), Proposal{Title: "ok", Changes: changes}); err != nil {
		t.Fatalf("ordinary names refused: %v", err)
	}
}

// TestApplyRechecksGitMetadata: a set stored before the check existed is
// refused at apply, and no HEAD appears.
func TestApplyRechecksGitMetadata(t *testing.T) {
	p := newProject(t, map[string]string{"main.go": "package main\n"})
	m := newManager(t, p)
	cs, err := m.Propose(diskReader(p), Proposal{Title: "t", Changes: []Change{{Path: "HEADX", Action: ActionCreate, Content: "ref: refs/heads/main\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Rename the stored file to HEAD, as an old record of a proposal would hold it.
	if _, err := m.update(cs.ID, func(cs *ChangeSet) error { cs.Files[0].Path = "HEAD"; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("apply of HEAD was not refused: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.Root, "HEAD")); err == nil {
		t.Fatal("HEAD was written")
	}
}
