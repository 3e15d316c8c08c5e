package changeset

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trestle/app/errdefs"
	"trestle/app/store"
)

func proposeOne(t testing.TB, m *Manager, path string) ChangeSet {
	t.Helper()
	cs, err := m.Propose(diskReader(m.Project()), Proposal{Title: "t " + path, Client: "agent", Changes: []Change{
		{Path: path, Action: ActionReplace, Content: "new " + path + "\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestManagerStates(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n", "b.go": "b\n"})
	m := newManager(t, p)
	a, b := proposeOne(t, m, "a.go"), proposeOne(t, m, "b.go")
	if a.ID != "cs-1" || b.ID != "cs-2" || a.Created.IsZero() {
		t.Fatalf("ids %s %s, created %v", a.ID, b.ID, a.Created)
	}
	if got, err := m.Reject(a.ID, "not now"); err != nil || got.State != StateRejected || got.Reason != "not now" {
		t.Fatalf("reject: %+v %v", got, err)
	}
	if _, err := m.Withdraw(a.ID, ""); !errors.Is(err, errdefs.ErrInvalid) || !strings.Contains(err.Error(), "cs-1 is rejected") {
		t.Fatalf("withdraw a rejected set: %v", err)
	}
	if got, err := m.Withdraw(b.ID, ""); err != nil || got.State != StateWithdrawn {
		t.Fatalf("withdraw: %+v %v", got, err)
	}
	list, _ := m.List("")
	if len(list) != 2 || list[0].ID != "cs-2" {
		t.Fatalf("list: %v", ids(list))
	}
	if list, _ := m.List(StateRejected); len(list) != 1 || list[0].ID != "cs-1" {
		t.Fatalf("rejected: %v", ids(list))
	}
	if _, err := m.List("done"); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("unknown filter: %v", err)
	}
	for _, id := range []string{"cs-9", "12", "cs-x", "cs-0"} {
		if _, err := m.Get(id); !errors.Is(err, errdefs.ErrNotFound) && !errors.Is(err, errdefs.ErrInvalid) {
			t.Errorf("get %q: %v", id, err)
		}
	}
}

func TestMarkStale(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n", "b.go": "b\n"})
	m := newManager(t, p)
	a, b := proposeOne(t, m, "a.go"), proposeOne(t, m, "b.go")
	m.Reject(b.ID, "")
	marked, err := m.MarkStale([]string{"a.go", "b.go", "c.go"})
	if err != nil || !slices.Equal(marked, []string{a.ID}) {
		t.Fatalf("marked %v, %v", marked, err)
	}
	got, _ := m.Get(a.ID)
	if got.State != StateStale || got.Files[0].State != StateStale || !strings.Contains(got.Files[0].Detail, "a.go changed") {
		t.Fatalf("a: %+v", got)
	}
	if got, _ := m.Get(b.ID); got.State != StateRejected {
		t.Fatalf("b became %s", got.State)
	}
	// A stale set whose file is back to its base still applies: the hash decides.
	if got, err := m.Apply(a.ID, nil, diskReader(p), nil); err != nil || got.State != StateApplied {
		t.Fatalf("apply stale: %v", err)
	}
}

// TestMarkStaleOnDiskComparesTheText: a watcher event for a file whose
// text on disk is still the set's base (saved without an edit) leaves the
// set pending; one for a changed file marks it stale.
func TestMarkStaleOnDiskComparesTheText(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n"})
	m := newManager(t, p)
	a := proposeOne(t, m, "a.go")
	if marked, err := m.MarkStaleOnDisk([]string{"a.go"}); err != nil || len(marked) != 0 {
		t.Fatalf("an unchanged a.go marked %v, %v", marked, err)
	}
	if got, _ := m.Get(a.ID); got.State != StatePending {
		t.Fatalf("after a save of the same text the set is %s", got.State)
	}
	if err := os.WriteFile(filepath.Join(p.Root, "a.go"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if marked, err := m.MarkStaleOnDisk([]string{"a.go"}); err != nil || !slices.Equal(marked, []string{a.ID}) {
		t.Fatalf("a changed a.go marked %v, %v", marked, err)
	}
}

// TestManagersShareTheStore opens the store file twice, as a window and a
// headless server do, with a Manager on each.
func TestManagersShareTheStore(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n", "b.go": "b\n"})
	path := filepath.Join(t.TempDir(), "state.db")
	s1, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := store.Open(path)
	window, headless := NewManager(s1, p), NewManager(s2, p)
	cs := proposeOne(t, headless, "a.go")
	seen, err := window.List(StatePending)
	if err != nil || len(seen) != 1 || seen[0].ID != cs.ID || seen[0].Client != "agent" {
		t.Fatalf("window sees %v, %v", ids(seen), err)
	}
	if _, err := window.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := headless.Get(cs.ID); got.State != StateApplied {
		t.Fatalf("headless sees %s", got.State)
	}
	other := NewManager(s2, newProject(t, map[string]string{"a.go": "a\n"}))
	if _, err := other.Get(cs.ID); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("another project's set: %v", err)
	}
	if list, _ := other.List(""); len(list) != 0 {
		t.Fatalf("another project lists %v", ids(list))
	}
	two := proposeOne(t, window, "b.go")
	if _, err := headless.Withdraw(two.ID, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := window.Reject(two.ID, "late"); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("reject after the other process withdrew: %v", err)
	}
}

func ids(list []ChangeSet) []string {
	var out []string
	for _, cs := range list {
		out = append(out, cs.ID+":"+cs.State)
	}
	return out
}

// TestDecidedSetsStopReportingPendingFiles: a withdrawn or rejected set's
// files say so, as read back from the store, instead of "pending".
func TestDecidedSetsStopReportingPendingFiles(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n", "b.go": "b\n"})
	m := newManager(t, p)
	a, b := proposeOne(t, m, "a.go"), proposeOne(t, m, "b.go")
	if _, err := m.MarkStale([]string{"b.go"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Reject(a.ID, "no"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Withdraw(b.ID, ""); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{a.ID: FileRejected, b.ID: FileWithdrawn} {
		cs, err := m.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range cs.Files {
			if f.State != want {
				t.Errorf("%s %s: file state %q, want %q", id, f.Path, f.State, want)
			}
		}
	}
}
