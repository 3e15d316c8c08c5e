package gitstatus

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"trestle/internal/testfix"
)

func TestLineChanges(t *testing.T) {
	head := "a\nb\nc\nd\ne\n"
	tests := []struct {
		name, now string
		want      map[int]Change
	}{
		{"same", head, map[int]Change{}},
		{"one modified", "a\nB\nc\nd\ne\n", map[int]Change{1: Modified}},
		{"one added", "a\nb\nnew\nc\nd\ne\n", map[int]Change{2: Added}},
		{"two deleted", "a\nd\ne\n", map[int]Change{1: Deleted}},
		{"deleted at the end", "a\nb\nc\n", map[int]Change{2: Deleted}},
		{"replaced by more", "a\nX\nY\nZ\nc\nd\ne\n", map[int]Change{1: Modified, 2: Added, 3: Added}},
		{"a new file", "x\ny\n", map[int]Change{0: Modified, 1: Modified}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := head
			if tt.name == "a new file" {
				h = "p\nq\nr\n" // every line replaced, one deleted
			}
			got := LineChanges(h, tt.now)
			if tt.name == "a new file" {
				if got[0] != Modified || got[1] != Modified {
					t.Errorf("LineChanges = %v", got)
				}
				return
			}
			if len(got) != len(tt.want) {
				t.Fatalf("LineChanges = %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("line %d: %v, want %v (all: %v)", k, got[k], v, got)
				}
			}
		})
	}
}

// TestHeadTextInARealRepository: HEAD's text of a committed file, none for
// a new one, from a project that is a subfolder of the repository.
// TestLineChangesOfALargeFileStayFine is the bug of a line diff that
// gives up on large inputs: in a 10,000-line file, 100 separate one-line
// changes must mark those 100 lines as modified and nothing else, not a
// few marks that each cover thousands of lines.
func TestLineChangesOfALargeFileStayFine(t *testing.T) {
	lines := testfix.GoLines(10_000)
	now, changed := testfix.Scatter(lines, 37, 99, 100)
	got := LineChanges(strings.Join(lines, ""), now)
	if len(got) != len(changed) {
		t.Fatalf("%d lines marked for %d separate one-line changes", len(got), len(changed))
	}
	for _, at := range changed {
		if got[at-1] != Modified {
			t.Fatalf("line %d (0-based) is %v, want Modified", at-1, got[at-1])
		}
	}
}

func TestHeadTextInARealRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	sub := filepath.Join(root, "proj")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "a.go"), []byte("package a\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(sub, "a.go"), []byte("package a\n\nfunc A() {}\n"), 0o644)
	os.WriteFile(filepath.Join(sub, "new.go"), []byte("package a\n"), 0o644)
	repo, ok := Find(sub)
	if !ok {
		t.Fatal("no repository found")
	}
	text, ok, err := HeadText(context.Background(), repo, filepath.Join(sub, "a.go"))
	if err != nil || !ok || text != "package a\n" {
		t.Fatalf("HeadText(a.go) = %q, %v, %v", text, ok, err)
	}
	if _, ok, err := HeadText(context.Background(), repo, filepath.Join(sub, "new.go")); err != nil || ok {
		t.Errorf("HeadText(new.go) = %v, %v; want none", ok, err)
	}
	if _, _, err := HeadText(context.Background(), repo, filepath.Join(t.TempDir(), "x.go")); err == nil {
		t.Error("a file outside the repository gave no error")
	}
}
