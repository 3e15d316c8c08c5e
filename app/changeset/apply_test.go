package changeset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
	"trestle/app/project"
)

// fourFiles is a project and a proposal with each action: an edit, a
// create in a new folder, a replace of an executable and a delete.
func fourFiles(t testing.TB) (*project.Project, Proposal) {
	p := newProject(t, map[string]string{
		"main.go":      "package main\n\nfunc main() {}\n",
		"run.sh!x":     "#!/bin/sh\necho old\n",
		"old/gone.txt": "bye\n",
	})
	return p, Proposal{Title: "four", Changes: []Change{
		{Path: "main.go", Action: ActionEdit, Edits: []Edit{{OldText: "func main() {}", NewText: "func main() { run() }"}}},
		{Path: "pkg/deep/new.go", Action: ActionCreate, Content: "package deep\n"},
		{Path: "run.sh", Action: ActionReplace, Content: "#!/bin/sh\necho new\n"},
		{Path: "old/gone.txt", Action: ActionDelete},
	}}
}

func TestApplyWritesEveryAction(t *testing.T) {
	p, in := fourFiles(t)
	m := newManager(t, p)
	cs, err := m.Propose(diskReader(p), in)
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, p)
	got, err := m.Apply(cs.ID, nil, diskReader(p), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := before
	delete(want, "old/gone.txt")
	want["main.go"] = tfile{"package main\n\nfunc main() { run() }\n", 0o644}
	want["run.sh"] = tfile{"#!/bin/sh\necho new\n", 0o755}
	want["pkg/"], want["pkg/deep/"] = tfile{mode: 0o755}, tfile{mode: 0o755}
	want["pkg/deep/new.go"] = tfile{"package deep\n", NewFileMode}
	sameTree(t, p, want) // also: no temporary or backup file is left
	if got.State != StateApplied || got.Decided.IsZero() {
		t.Fatalf("state %s decided %v", got.State, got.Decided)
	}
	for _, f := range got.Files {
		wantSum := hashText(f.New)
		if f.Action == ActionDelete {
			wantSum = ""
		}
		if f.State != StateApplied || f.AppliedSHA256 != wantSum {
			t.Errorf("%s: state %s applied sha %s", f.Path, f.State, f.AppliedSHA256)
		}
	}
	if stored, _ := m.Get(cs.ID); stored.State != StateApplied || stored.File("run.sh").BaseMode != 0o755 {
		t.Fatalf("stored %s, run.sh base mode %o", stored.State, stored.File("run.sh").BaseMode)
	}
	if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("second apply: %v", err)
	}
}

func TestApplyRefusesConflictAndWritesNothing(t *testing.T) {
	p, in := fourFiles(t)
	m := newManager(t, p)
	cs, _ := m.Propose(diskReader(p), in)
	os.WriteFile(filepath.Join(p.Root, "run.sh"), []byte("#!/bin/sh\necho mine\n"), 0o755)
	os.MkdirAll(filepath.Join(p.Root, "pkg/deep"), 0o755)
	os.WriteFile(filepath.Join(p.Root, "pkg/deep/new.go"), []byte("package mine\n"), 0o644)
	before := snapshot(t, p)
	got, err := m.Apply(cs.ID, nil, diskReader(p), nil)
	if !errors.Is(err, ErrConflict) || !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("apply: %v", err)
	}
	for _, want := range []string{"run.sh was changed", "pkg/deep/new.go now exists", "nothing was written"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	sameTree(t, p, before)
	if got.State != StateConflict || got.File("run.sh").State != StateConflict || got.File("main.go").State != StatePending {
		t.Fatalf("states: set %s, run.sh %s, main.go %s", got.State, got.File("run.sh").State, got.File("main.go").State)
	}
	if stored, _ := m.Get(cs.ID); stored.State != StateConflict || !strings.Contains(stored.File("run.sh").Detail, "changed") {
		t.Fatalf("stored %+v", stored)
	}
}

func TestApplySeesTheEditorBuffer(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "package a\n"})
	m := newManager(t, p)
	cs, _ := m.Propose(diskReader(p), Proposal{Title: "t", Changes: []Change{{Path: "a.go", Action: ActionReplace, Content: "package b\n"}}})
	unsaved := func(project.Path) (string, bool, error) { return "package a // typing\n", true, nil }
	if _, err := m.Apply(cs.ID, nil, unsaved, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("apply over a modified buffer: %v", err)
	}
}

// TestApplyPartlyThenTheRest: a file left out of an apply stays pending
// and is applied later (before per-hunk review it was "skipped" for good).
func TestApplyPartlyThenTheRest(t *testing.T) {
	p, in := fourFiles(t)
	m := newManager(t, p)
	cs, _ := m.Propose(diskReader(p), in)
	before := snapshot(t, p)
	got, err := m.Apply(cs.ID, []string{"run.sh"}, diskReader(p), nil)
	if err != nil {
		t.Fatal(err)
	}
	before["run.sh"] = tfile{"#!/bin/sh\necho new\n", 0o755}
	sameTree(t, p, before)
	if got.State != StatePartlyApplied || got.File("main.go").State != StatePending || !got.CanApply() {
		t.Fatalf("set %s (can apply %v), main.go %s", got.State, got.CanApply(), got.File("main.go").State)
	}
	if _, err := m.Apply(cs.ID, []string{"nope.go"}, diskReader(p), nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("unknown include: %v", err)
	}
	if _, err := m.Apply(cs.ID, []string{"run.sh"}, diskReader(p), nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("applying run.sh twice: %v", err)
	}
	got, err = m.Apply(cs.ID, nil, diskReader(p), nil)
	if err != nil {
		t.Fatalf("apply the rest later: %v", err)
	}
	if got.State != StateApplied || got.CanApply() {
		t.Fatalf("after the rest: set %s", got.State)
	}
	if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("apply with nothing pending: %v", err)
	}
	q, in2 := fourFiles(t)
	m2 := newManager(t, q)
	whole, _ := m2.Propose(diskReader(q), in2)
	if _, err := m2.Apply(whole.ID, nil, diskReader(q), nil); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, p, files(snapshot(t, q)))
}

// TestApplyRollsBackEveryFailure makes each rename in turn fail, with and
// without hard links for the backups, and with the old texts kept in the
// journal (a nil reader: the files on disk): every file must be back byte
// for byte, with its mode, created folders gone, and the set still
// pending.
func TestApplyRollsBackEveryFailure(t *testing.T) {
	for _, mode := range []string{"backups", "no links", "old texts in the journal"} {
		noLinks := mode == "no links"
		for n := 1; n <= 4; n++ {
			t.Run(fmt.Sprintf("rename %d, %s", n, mode), func(t *testing.T) {
				p, in := fourFiles(t)
				m := newManager(t, p)
				cs, _ := m.Propose(diskReader(p), in)
				before := snapshot(t, p)
				w := &faultyWriter{failRename: n, noLinks: noLinks}
				read := diskReader(p)
				if mode == "old texts in the journal" {
					read = nil
				}
				_, err := m.Apply(cs.ID, nil, read, w)
				if err == nil {
					t.Fatal("apply with a failing rename succeeded")
				}
				// Without links each backup is a copy renamed into place, so
				// the nth rename is not the nth file's.
				named := strings.Contains(err.Error(), in.Changes[n-1].Path)
				for _, ch := range in.Changes {
					named = named || noLinks && strings.Contains(err.Error(), ch.Path)
				}
				if !errors.Is(err, errInjected) || !named {
					t.Fatalf("apply: %v", err)
				}
				sameTree(t, p, before)
				if stored, _ := m.Get(cs.ID); stored.State != StatePending {
					t.Fatalf("state after a failed apply: %s", stored.State)
				}
			})
		}
	}
}

func TestApplyRollsBackFailedTempWrites(t *testing.T) {
	for n := 1; n <= 3; n++ { // the three changes that write content
		t.Run(fmt.Sprint("write ", n), func(t *testing.T) {
			p, in := fourFiles(t)
			m := newManager(t, p)
			cs, _ := m.Propose(diskReader(p), in)
			before := snapshot(t, p)
			_, err := m.Apply(cs.ID, nil, diskReader(p), &faultyWriter{failWrite: n})
			if !errors.Is(err, errInjected) || !strings.Contains(err.Error(), in.Changes[n-1].Path) {
				t.Fatalf("apply: %v", err)
			}
			sameTree(t, p, before)
		})
	}
}

func TestApplyReportsRealFailure(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores folder permissions")
	}
	p, in := fourFiles(t)
	m := newManager(t, p)
	cs, _ := m.Propose(diskReader(p), in)
	before := snapshot(t, p)
	old := filepath.Join(p.Root, "old")
	os.Chmod(old, 0o500) // the delete's rename fails for real
	defer os.Chmod(old, 0o755)
	_, err := m.Apply(cs.ID, nil, diskReader(p), nil)
	if !errors.Is(err, fs.ErrPermission) || !strings.Contains(err.Error(), "old/gone.txt") {
		t.Fatalf("apply: %v", err)
	}
	os.Chmod(old, 0o755)
	sameTree(t, p, before)
}

func TestRevert(t *testing.T) {
	p, in := fourFiles(t)
	m := newManager(t, p)
	cs, _ := m.Propose(diskReader(p), in)
	before := snapshot(t, p)
	if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
		t.Fatal(err)
	}
	got, err := m.Revert(cs.ID, diskReader(p), nil)
	if err != nil {
		t.Fatal(err)
	}
	before["pkg/"], before["pkg/deep/"] = tfile{mode: 0o755}, tfile{mode: 0o755} // folders it made stay
	sameTree(t, p, before)
	if got.State != StateReverted || got.File("main.go").State != FileReverted {
		t.Fatalf("set %s, main.go %s", got.State, got.File("main.go").State)
	}
	if _, err := m.Revert(cs.ID, diskReader(p), nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("second revert: %v", err)
	}
}

func TestRevertRefusesFilesChangedSince(t *testing.T) {
	p, in := fourFiles(t)
	m := newManager(t, p)
	cs, _ := m.Propose(diskReader(p), in)
	m.Apply(cs.ID, nil, diskReader(p), nil)
	os.WriteFile(filepath.Join(p.Root, "main.go"), []byte("mine\n"), 0o644)
	os.WriteFile(filepath.Join(p.Root, "old/gone.txt"), []byte("back\n"), 0o644)
	before := snapshot(t, p)
	_, err := m.Revert(cs.ID, diskReader(p), nil)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "main.go was changed since the apply") ||
		!strings.Contains(err.Error(), "old/gone.txt now exists") {
		t.Fatalf("revert: %v", err)
	}
	sameTree(t, p, before)
	if stored, _ := m.Get(cs.ID); stored.State != StateApplied {
		t.Fatalf("state %s", stored.State)
	}
}
