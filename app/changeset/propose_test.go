package changeset

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
	"trestle/app/project"
)

func TestProposeRefuses(t *testing.T) {
	p := newProject(t, map[string]string{
		"main.go":    "package main\n\nfunc foo() {}\n\nfunc foo() {}\nfunc foo() {}\n",
		"util.go":    "package main\n\nvar a = 1\n",
		"latin1.txt": "caf\xe9\n",
		"sub/x.go":   "package sub\n",
	})
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o644)
	os.Symlink(outside, filepath.Join(p.Root, "out"))
	edit := func(path, old, new string) Change {
		return Change{Path: path, Action: ActionEdit, Edits: []Edit{{OldText: old, NewText: new}}}
	}
	many := make([]Change, MaxFiles+1)
	for i := range many {
		many[i] = Change{Path: "f" + strings.Repeat("x", i), Action: ActionCreate}
	}
	tests := []struct {
		name    string
		title   string
		changes []Change
		want    error
		msg     string
	}{
		{"no title", " ", []Change{edit("util.go", "a = 1", "a = 2")}, errdefs.ErrInvalid, "title is required"},
		{"no changes", "t", nil, errdefs.ErrInvalid, "changes is empty"},
		{"too many files", "t", many, errdefs.ErrTooLarge, "201 file changes, over the limit of 200"},
		{"old text missing", "t", []Change{edit("main.go", "func bar(\n\treturn", "x")}, errdefs.ErrInvalid,
			`old_text occurs 0 times in main.go: "func bar("`},
		{"old text thrice", "t", []Change{edit("main.go", "func foo() {}", "x")}, errdefs.ErrInvalid,
			`old_text occurs 3 times in main.go: "func foo() {}"`},
		{"second edit missing", "t", []Change{{Path: "util.go", Action: ActionEdit,
			Edits: []Edit{{OldText: "var a", NewText: "var b"}, {OldText: "nope", NewText: "x"}}}}, errdefs.ErrInvalid,
			`change 1: old_text of edit 2 occurs 0 times in util.go: "nope"`},
		{"overlapping edits", "t", []Change{{Path: "util.go", Action: ActionEdit,
			Edits: []Edit{{OldText: "var a", NewText: "x"}, {OldText: "a = 1", NewText: "y"}}}}, errdefs.ErrInvalid,
			"edits 1 and 2 overlap in util.go"},
		{"empty old text", "t", []Change{edit("util.go", "", "x")}, errdefs.ErrInvalid, "old_text for util.go is empty"},
		{"create existing", "t", []Change{{Path: "util.go", Action: ActionCreate, Content: "x"}}, errdefs.ErrInvalid,
			"util.go: create refused: the file exists"},
		{"replace missing", "t", []Change{{Path: "nope.go", Action: ActionReplace, Content: "x"}}, errdefs.ErrInvalid,
			"nope.go: replace refused: no such file"},
		{"delete missing", "t", []Change{{Path: "nope.go", Action: ActionDelete}}, errdefs.ErrInvalid,
			"nope.go: delete refused: no such file"},
		{"edit missing", "t", []Change{edit("nope.go", "a", "b")}, errdefs.ErrInvalid, "nope.go: edit refused: no such file"},
		{"dot dot", "t", []Change{{Path: "../x.go", Action: ActionCreate}}, errdefs.ErrOutside, "../x.go"},
		{"absolute outside", "t", []Change{{Path: "/etc/passwd", Action: ActionDelete}}, errdefs.ErrOutside, "/etc/passwd"},
		{"symlink out", "t", []Change{{Path: "out/secret", Action: ActionDelete}}, errdefs.ErrOutside, "a symlink leads to"},
		{"same path twice", "t", []Change{edit("util.go", "a = 1", "a = 2"), {Path: "./util.go", Action: ActionDelete}},
			errdefs.ErrInvalid, "changes 1 and 2 both touch util.go"},
		{"folder", "t", []Change{{Path: "sub", Action: ActionDelete}}, errdefs.ErrInvalid, "sub: is a folder"},
		{"inside .git", "t", []Change{{Path: ".git/hooks/pre-commit", Action: ActionCreate}}, errdefs.ErrInvalid, "never touch .git"},
		{"parent is a file", "t", []Change{{Path: "util.go/x.go", Action: ActionCreate}}, errdefs.ErrInvalid,
			"util.go/x.go: a folder on its way is a file"},
		{"bad action", "t", []Change{{Path: "util.go", Action: "patch"}}, errdefs.ErrInvalid, `action "patch" is not edit`},
		{"edit with content", "t", []Change{{Path: "util.go", Action: ActionEdit, Content: "x"}}, errdefs.ErrInvalid,
			"an edit takes edits"},
		{"no change", "t", []Change{{Path: "util.go", Action: ActionReplace, Content: "package main\n\nvar a = 1\n"}},
			errdefs.ErrInvalid, "util.go: the replace leaves the file unchanged"},
		{"binary content", "t", []Change{{Path: "b.bin", Action: ActionCreate, Content: "a\x00b"}}, errdefs.ErrInvalid, "NUL bytes"},
		{"not utf-8", "t", []Change{{Path: "latin1.txt", Action: ActionDelete}}, errdefs.ErrInvalid, "latin1.txt: the file is not UTF-8"},
		{"too big", "t", []Change{{Path: "big.txt", Action: ActionCreate, Content: strings.Repeat("x", MaxFileBytes+1)}},
			errdefs.ErrTooLarge, "big.txt: the new content is"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Propose(p, diskReader(p), Proposal{Title: tt.title, Changes: tt.changes})
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("got %v\nwant %v containing %q", err, tt.want, tt.msg)
			}
			if !errors.Is(err, errdefs.ErrInvalid) && !errors.Is(err, errdefs.ErrOutside) {
				t.Fatalf("%v wraps neither ErrInvalid nor ErrOutside", err)
			}
		})
	}
}

func TestProposeComputesNewAndDiff(t *testing.T) {
	p := newProject(t, map[string]string{
		"main.go": "package main\n\nfunc main() {\n\tprintln(1)\n}\n",
		"old.go":  "package main\n// gone\n",
	})
	cs, err := Propose(p, diskReader(p), Proposal{Title: " Print two ", Client: "claude", Changes: []Change{
		{Path: "main.go", Action: ActionEdit, Edits: []Edit{
			{OldText: "println(1)", NewText: "println(2)\n\tprintln(3)"},
			{OldText: "package main", NewText: "package main // x"},
		}},
		{Path: "new/dir/a.go", Action: ActionCreate, Content: "package dir\n"},
		{Path: "old.go", Action: ActionDelete},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if cs.Title != "Print two" || cs.State != StatePending || cs.Client != "claude" || len(cs.Files) != 3 {
		t.Fatalf("change set %+v", cs)
	}
	main := cs.File("main.go")
	if want := "package main // x\n\nfunc main() {\n\tprintln(2)\n\tprintln(3)\n}\n"; main.New != want {
		t.Fatalf("new main.go %q, want %q", main.New, want)
	}
	if main.Added != 3 || main.Removed != 2 || main.BaseSHA256 != hashText(main.Base) {
		t.Fatalf("main.go stats +%d -%d sha %s", main.Added, main.Removed, main.BaseSHA256)
	}
	wantDiff := "--- a/main.go\n+++ b/main.go\n@@ -1,5 +1,6 @@\n-package main\n+package main // x\n \n func main() {\n-\tprintln(1)\n+\tprintln(2)\n+\tprintln(3)\n }\n"
	if got := Diff(*main); got != wantDiff {
		t.Fatalf("diff:\n%s\nwant:\n%s", got, wantDiff)
	}
	if d := Diff(*cs.File("new/dir/a.go")); !strings.HasPrefix(d, "--- /dev/null\n+++ b/new/dir/a.go\n") {
		t.Fatalf("create diff:\n%s", d)
	}
	if d := Diff(*cs.File("old.go")); !strings.HasPrefix(d, "--- a/old.go\n+++ /dev/null\n") || cs.File("old.go").Removed != 2 {
		t.Fatalf("delete diff:\n%s", d)
	}
	if a, r := cs.Stats(); a != 4 || r != 4 {
		t.Fatalf("stats +%d -%d", a, r)
	}
}

func TestProposeUsesTheCallersBase(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "on disk\n"})
	buffer := func(project.Path) (string, bool, error) { return "in the editor\n", true, nil }
	cs, err := Propose(p, buffer, Proposal{Title: "t", Changes: []Change{
		{Path: "a.go", Action: ActionEdit, Edits: []Edit{{OldText: "editor", NewText: "buffer"}}}}})
	if err != nil || cs.Files[0].New != "in the buffer\n" {
		t.Fatalf("%v %+v", err, cs)
	}
}

func TestOccurrencesCountsOverlaps(t *testing.T) {
	for _, tt := range []struct {
		s, old       string
		first, count int
	}{{"aaa", "aa", 0, 2}, {"xabab", "ab", 1, 2}, {"abc", "d", -1, 0}, {"abc", "abc", 0, 1}} {
		if f, c := occurrences(tt.s, tt.old); f != tt.first || c != tt.count {
			t.Errorf("occurrences(%q, %q) = %d, %d; want %d, %d", tt.s, tt.old, f, c, tt.first, tt.count)
		}
	}
}
