package changeset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"trestle/app/errdefs"
	"trestle/app/project"
	"trestle/internal/testfix"
)

// outsideTwin is a folder outside the project holding the same a/ files as
// the project, so a hash check alone cannot tell them apart.
func outsideTwin(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testfix.WriteFiles(t, dir, files)
	return dir
}

// swapForSymlink replaces the project folder rel with a symlink to target.
func swapForSymlink(t *testing.T, p *project.Project, rel, target string) {
	t.Helper()
	abs := filepath.Join(p.Root, filepath.FromSlash(rel))
	if err := os.RemoveAll(abs); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, abs); err != nil {
		t.Fatal(err)
	}
}

// treeOf is every file under dir with its content.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(abs string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(abs)
			rel, _ := filepath.Rel(dir, abs)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return out
}

// TestApplyRefusesASymlinkSwappedInAfterProposal proposes changes under
// folder a, then replaces a with a symlink to a folder outside that holds
// the same files: every apply is refused and nothing outside is written.
func TestApplyRefusesASymlinkSwappedInAfterProposal(t *testing.T) {
	files := map[string]string{"a/file.go": "package a\n", "a/gone.txt": "bye\n", "a/b/deep.go": "package b\n"}
	tests := []struct {
		name   string
		change Change
		swap   string // the folder replaced by a symlink
	}{
		{"edit", Change{Path: "a/file.go", Action: ActionEdit, Edits: []Edit{{OldText: "package a", NewText: "package pwned"}}}, "a"},
		{"replace", Change{Path: "a/file.go", Action: ActionReplace, Content: "pwned\n"}, "a"},
		{"create", Change{Path: "a/new.go", Action: ActionCreate, Content: "pwned\n"}, "a"},
		{"create in a new folder", Change{Path: "a/x/y/new.go", Action: ActionCreate, Content: "pwned\n"}, "a"},
		{"delete", Change{Path: "a/gone.txt", Action: ActionDelete}, "a"},
		{"edit deeper, inner folder swapped", Change{Path: "a/b/deep.go", Action: ActionReplace, Content: "pwned\n"}, "a/b"},
		{"edit deeper, outer folder swapped", Change{Path: "a/b/deep.go", Action: ActionReplace, Content: "pwned\n"}, "a"},
		{"file swapped for a symlink", Change{Path: "a/file.go", Action: ActionReplace, Content: "pwned\n"}, "a/file.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t, files)
			m := newManager(t, p)
			cs, err := m.Propose(diskReader(p), Proposal{Title: "t", Changes: []Change{tt.change}})
			if err != nil {
				t.Fatal(err)
			}
			outside := outsideTwin(t, files)
			target := filepath.Join(outside, filepath.FromSlash(tt.swap))
			before := treeOf(t, outside)
			swapForSymlink(t, p, tt.swap, target)
			_, err = m.Apply(cs.ID, nil, diskReader(p), nil)
			if err == nil || !errors.Is(err, errdefs.ErrInvalid) {
				t.Fatalf("apply after the swap: %v", err)
			}
			if after := treeOf(t, outside); !equalTrees(before, after) {
				t.Fatalf("written outside: %v, was %v", after, before)
			}
		})
	}
}

// swappingWriter is the real writer that, at its first WriteTemp, swaps a
// folder of the project for a symlink out: the race an apply cannot lock
// out, between its checks and its writes.
type swappingWriter struct {
	OSWriter
	t       *testing.T
	p       *project.Project
	rel     string
	target  string
	swapped bool
}

func (w *swappingWriter) WriteTemp(dir, pattern string, data []byte, perm fs.FileMode) (string, error) {
	if !w.swapped {
		w.swapped = true
		swapForSymlink(w.t, w.p, w.rel, w.target)
	}
	return w.OSWriter.WriteTemp(dir, pattern, data, perm)
}

// TestApplyRefusesASymlinkSwappedInDuringApply swaps folder a for a
// symlink out after the apply checked its paths and before it renames:
// the apply fails and nothing outside is changed or left behind.
func TestApplyRefusesASymlinkSwappedInDuringApply(t *testing.T) {
	files := map[string]string{"a/file.go": "package a\n", "a/gone.txt": "bye\n"}
	tests := []struct {
		name    string
		changes []Change
	}{
		{"replace", []Change{{Path: "a/file.go", Action: ActionReplace, Content: "pwned\n"}}},
		{"create", []Change{{Path: "a/new.go", Action: ActionCreate, Content: "pwned\n"}}},
		{"delete after a write", []Change{{Path: "top.go", Action: ActionCreate, Content: "package top\n"},
			{Path: "a/gone.txt", Action: ActionDelete}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t, files)
			m := newManager(t, p)
			cs, err := m.Propose(diskReader(p), Proposal{Title: "t", Changes: tt.changes})
			if err != nil {
				t.Fatal(err)
			}
			outside := outsideTwin(t, files)
			before := treeOf(t, outside)
			w := &swappingWriter{OSWriter: OSWriter{Root: p.Root}, t: t, p: p, rel: "a", target: filepath.Join(outside, "a")}
			_, err = m.Apply(cs.ID, nil, diskReader(p), w)
			if !w.swapped {
				t.Fatal("the writer never swapped")
			}
			if err == nil {
				t.Fatalf("apply through a swapped folder succeeded; outside now %v", treeOf(t, outside))
			}
			if after := treeOf(t, outside); !equalTrees(before, after) {
				t.Fatalf("outside changed: %v, was %v (%v)", after, before, err)
			}
			t.Logf("refused: %v", err)
			if _, err := os.Stat(filepath.Join(p.Root, "top.go")); err == nil {
				t.Fatal("the other file of the set stayed written")
			}
		})
	}
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestProposalLimitsOnePast goes one past each size limit of a proposal:
// each is refused naming the limit, and at the limit it is accepted.
func TestProposalLimitsOnePast(t *testing.T) {
	p := newProject(t, map[string]string{"big.txt": strings.Repeat("x", MaxFileBytes+1), "ok.txt": "x\n"})
	creates := func(n int) []Change {
		out := make([]Change, n)
		for i := range out {
			out[i] = Change{Path: "f/" + strconv.Itoa(i) + ".go", Action: ActionCreate, Content: "x\n"}
		}
		return out
	}
	tests := []struct {
		name    string
		in      Proposal
		wantErr string // "" when accepted
	}{
		{"files at the limit", Proposal{Title: "t", Changes: creates(MaxFiles)}, ""},
		{"files one past", Proposal{Title: "t", Changes: creates(MaxFiles + 1)}, "over the limit of 200"},
		{"content at the limit", Proposal{Title: "t", Changes: []Change{{Path: "n.txt", Action: ActionCreate, Content: strings.Repeat("x", MaxFileBytes)}}}, ""},
		{"content one past", Proposal{Title: "t", Changes: []Change{{Path: "n.txt", Action: ActionCreate, Content: strings.Repeat("x", MaxFileBytes+1)}}}, "over the 8388608 byte limit"},
		{"base one past", Proposal{Title: "t", Changes: []Change{{Path: "big.txt", Action: ActionReplace, Content: "x"}}}, "over the 8388608 byte limit"},
		{"title at the limit", Proposal{Title: strings.Repeat("t", MaxTitleBytes), Changes: creates(1)}, ""},
		{"title one past", Proposal{Title: strings.Repeat("t", MaxTitleBytes+1), Changes: creates(1)}, "title is 201 bytes"},
		{"description at the limit", Proposal{Title: "t", Description: strings.Repeat("d", MaxDescriptionBytes), Changes: creates(1)}, ""},
		{"description one past", Proposal{Title: "t", Description: strings.Repeat("d", MaxDescriptionBytes+1), Changes: creates(1)}, "description is 65537 bytes"},
		{"total one past", Proposal{Title: "t", Changes: []Change{
			{Path: "n1.txt", Action: ActionCreate, Content: strings.Repeat("x", MaxFileBytes)},
			{Path: "n2.txt", Action: ActionCreate, Content: strings.Repeat("x", MaxTotalBytes-MaxFileBytes+1)}}}, "over the 16777216 byte limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Propose(p, diskReaderUnbounded(p), tt.in)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("refused at the limit: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, errdefs.ErrTooLarge) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got %v, want a size refusal with %q", err, tt.wantErr)
			}
		})
	}
}

// diskReaderUnbounded reads from disk without ReadFile's size limit, so a
// base over MaxFileBytes reaches Propose.
func diskReaderUnbounded(p *project.Project) ReadFunc {
	return func(cp project.Path) (string, bool, error) {
		data, err := os.ReadFile(cp.Abs())
		if errors.Is(err, fs.ErrNotExist) {
			return "", false, nil
		}
		return string(data), err == nil, err
	}
}
