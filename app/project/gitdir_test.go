package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
)

// gitProject is a project with a .git folder holding a credential, a
// nested repository, a folder whose name differs from .git only in case,
// and symlinks into .git.
func gitProject(t *testing.T) *Project {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		".git/config":      "[remote \"origin\"]\n\turl = https://user:hunter2@example.com/r.git\n",
		".git/refs/x":      "0000\n",
		".GIT/config":      "[remote]\n\turl = https://user:hunter2@example.com/r.git\n",
		"sub/.git":         "gitdir: ../.git/modules/sub\n",
		"deep/a/.Git/HEAD": "ref: refs/heads/main\n",
		"main.go":          "package main\n",
		".github/ci.yml":   "on: push\n",
		".gitignore":       "*.log\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"gitlink": ".git", "cfg.txt": ".git/config", "a/up": ".."} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755)
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestResolveShownRefusesGitMetadata: .git/config can hold credentials in remote
// URLs (issue 11), and a .git an agent could write would let git run its
// commands. Any letter case, any depth, through symlinks.
func TestResolveShownRefusesGitMetadata(t *testing.T) {
	p := gitProject(t)
	refused := []string{
		".git", ".git/config", ".git/refs/x", ".GIT/config", ".Git/HEAD", "sub/.git",
		"deep/a/.Git/HEAD", "gitlink/config", "cfg.txt", "a/up/.git/config", "./.git/../.git/config",
		".git/new-file", ".git.", ".git /config", filepath.Join(p.Root, ".git", "config"),
	}
	for _, name := range refused {
		t.Run(name, func(t *testing.T) {
			_, err := p.ResolveShown(name)
			if !errors.Is(err, errdefs.ErrRefused) || !strings.Contains(err.Error(), ".git") {
				t.Fatalf("ResolveShown(%q) = %v, want refused naming .git", name, err)
			}
			if _, err := p.ReadFile(name); !errors.Is(err, errdefs.ErrRefused) {
				t.Fatalf("ReadFile(%q) = %v, want refused", name, err)
			}
		})
	}
	for _, name := range []string{"main.go", ".github/ci.yml", ".gitignore", "sub", ".git/../main.go"} {
		if _, err := p.ResolveShown(name); err != nil {
			t.Errorf("ResolveShown(%q) = %v, want ok", name, err)
		}
	}
}

// TestResolveRefusesAGitDirInsideTheProject: a .git file that points to a
// folder inside the project (git --separate-git-dir=./store) makes that
// folder the repository: it is refused too.
func TestResolveRefusesAGitDirInsideTheProject(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "store"), 0o755)
	os.WriteFile(filepath.Join(root, "store", "config"), []byte("[remote]\n\turl = https://u:secret@h/r\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: store\n"), 0o644)
	p, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadFile("store/config"); !errors.Is(err, errdefs.ErrRefused) {
		t.Fatalf("ReadFile(store/config) = %v, want refused: it is the repository", err)
	}
}

func TestListFilesSkipsGitInAnyCase(t *testing.T) {
	p := gitProject(t)
	files, _, err := p.ListFiles(context.Background(), "", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.Contains(strings.ToLower(f), ".git/") || strings.EqualFold(f, "sub/.git") {
			t.Errorf("listed %s", f)
		}
	}
	for _, under := range []string{".git", ".git/refs", ".GIT", "gitlink"} {
		if _, _, err := p.ListFiles(context.Background(), under, "", 0); !errors.Is(err, errdefs.ErrRefused) {
			t.Errorf("ListFiles(%q) = %v, want refused", under, err)
		}
	}
}
