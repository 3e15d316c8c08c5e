package changeset

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trestle/app/errdefs"
)

// twoHunks is a file whose proposal has two hunks, far apart.
const twoHunksBase = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n"

func twoHunksNew() string {
	return strings.Replace(strings.Replace(twoHunksBase, "one\n", "ONE\n", 1), "twelve\n", "TWELVE\n", 1)
}

func proposeTwoHunks(t *testing.T) (*Manager, ChangeSet) {
	t.Helper()
	p := newProject(t, map[string]string{"a.txt": twoHunksBase, "b.txt": "b\n"})
	m := newManager(t, p)
	cs, err := m.Propose(diskReader(p), Proposal{Title: "two", Client: "agent-x", Changes: []Change{
		{Path: "a.txt", Action: ActionReplace, Content: twoHunksNew()},
		{Path: "b.txt", Action: ActionReplace, Content: "B\n"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(Hunks(cs.Files[0])); n != 2 {
		t.Fatalf("a.txt has %d hunks, want 2", n)
	}
	return m, cs
}

func writeFile(t *testing.T, m *Manager, rel, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(m.Project().Root, rel), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHunkThatNoLongerAppliesIsAConflict: after hunk 1 is applied the
// person changes the file; applying hunk 2 is refused as a conflict (not
// forced), nothing is written, the hunk stays undecided, and once the
// file is back as the apply left it, hunk 2 applies.
func TestHunkThatNoLongerAppliesIsAConflict(t *testing.T) {
	m, cs := proposeTwoHunks(t)
	read := diskReader(m.Project())
	if _, err := m.ApplySelection(cs.ID, Selection{"a.txt": {1}}, read, nil); err != nil {
		t.Fatal(err)
	}
	afterOne := strings.Replace(twoHunksBase, "one\n", "ONE\n", 1)
	readIs(t, m, "a.txt", afterOne)
	writeFile(t, m, "a.txt", afterOne+"typed by the person\n")
	got, err := m.ApplySelection(cs.ID, Selection{"a.txt": {2}, "b.txt": nil}, read, nil)
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "a.txt was changed") {
		t.Fatalf("apply over a changed file: %v", err)
	}
	readIs(t, m, "b.txt", "b\n")
	f := got.File("a.txt")
	if f.Hunks[0].State != StateApplied || f.Hunks[1].State != StateConflict || !strings.Contains(f.Hunks[1].Detail, "since it was partly applied") {
		t.Fatalf("hunks after the conflict: %+v", f.Hunks)
	}
	if got.State != StatePartlyApplied || !got.CanApply() || got.History[len(got.History)-1].Action != ActionConflict {
		t.Fatalf("set after the conflict: %s, history %+v", got.State, got.History)
	}
	writeFile(t, m, "a.txt", afterOne)
	got, err = m.ApplySelection(cs.ID, Selection{"a.txt": {2}}, read, nil)
	if err != nil {
		t.Fatal(err)
	}
	readIs(t, m, "a.txt", twoHunksNew())
	if got.File("a.txt").State != StateApplied || got.State != StatePartlyApplied {
		t.Fatalf("after hunk 2: file %s, set %s", got.File("a.txt").State, got.State)
	}
}

// TestWithdrawnAndRejectedSetsHaveNothingPending: neither the set, nor a
// file, nor a hunk of a withdrawn or rejected set says pending, also when
// part of it was applied first.
func TestWithdrawnAndRejectedSetsHaveNothingPending(t *testing.T) {
	tests := []struct {
		name  string
		act   func(m *Manager, cs ChangeSet) (ChangeSet, error)
		state string
	}{
		{"withdrawn", func(m *Manager, cs ChangeSet) (ChangeSet, error) { return m.Withdraw(cs.ID, "") }, StateWithdrawn},
		{"rejected", func(m *Manager, cs ChangeSet) (ChangeSet, error) { return m.Reject(cs.ID, "no") }, StateRejected},
		{"rejected after a partial apply", func(m *Manager, cs ChangeSet) (ChangeSet, error) {
			if _, err := m.ApplySelection(cs.ID, Selection{"a.txt": {2}}, diskReader(m.Project()), nil); err != nil {
				return ChangeSet{}, err
			}
			return m.Reject(cs.ID, "no")
		}, StatePartlyApplied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, cs := proposeTwoHunks(t)
			if _, err := tt.act(m, cs); err != nil {
				t.Fatal(err)
			}
			got, err := m.Get(cs.ID)
			if err != nil || got.State != tt.state || got.CanApply() {
				t.Fatalf("set %s (can apply %v), want %s: %v", got.State, got.CanApply(), tt.state, err)
			}
			for _, f := range got.Files {
				if undecidedHunk(f.State) || f.CanApply() {
					t.Errorf("%s is %s", f.Path, f.State)
				}
				for _, h := range f.Hunks {
					if undecidedHunk(h.State) {
						t.Errorf("%s hunk %d is %s", f.Path, h.N, h.State)
					}
				}
			}
			if _, err := m.ApplySelection(cs.ID, nil, diskReader(m.Project()), nil); !errors.Is(err, errdefs.ErrInvalid) {
				t.Fatalf("applied a %s set: %v", tt.state, err)
			}
		})
	}
}

// TestEditBeforeApply: the person's text is what applies; the set says
// the person changed it, keeps the agent's text, and gives the diff.
func TestEditBeforeApply(t *testing.T) {
	m, cs := proposeTwoHunks(t)
	mine := strings.Replace(twoHunksNew(), "TWELVE\n", "Twelve, as the person wants it\n", 1)
	got, err := m.EditFile(cs.ID, "a.txt", mine)
	if err != nil {
		t.Fatal(err)
	}
	f := got.File("a.txt")
	if !f.EditedByPerson || f.Proposed != twoHunksNew() || f.New != mine || len(f.Hunks) != 2 {
		t.Fatalf("after the edit: edited %v, hunks %d", f.EditedByPerson, len(f.Hunks))
	}
	if d := EditDiff(*f); !strings.Contains(d, "-TWELVE\n+Twelve, as the person wants it\n") {
		t.Fatalf("edit diff:\n%s", d)
	}
	full, err := m.Full(cs.ID) // as another process reads it
	if err != nil || !full.File("a.txt").EditedByPerson || full.File("a.txt").New != mine || full.File("a.txt").Proposed != twoHunksNew() {
		t.Fatalf("stored edit: %v", err)
	}
	if _, err := m.Apply(cs.ID, nil, diskReader(m.Project()), nil); err != nil {
		t.Fatal(err)
	}
	readIs(t, m, "a.txt", mine)
	got, _ = m.Get(cs.ID)
	var actions []string
	for _, e := range got.History {
		actions = append(actions, e.Action+"/"+e.Who)
	}
	if want := "proposed/agent-x edited by person/person applied/person"; strings.Join(actions, " ") != want {
		t.Fatalf("history %q, want %q", actions, want)
	}
	if _, err := m.EditFile(cs.ID, "b.txt", "x\n"); err == nil || !strings.Contains(err.Error(), "it is applied") {
		t.Errorf("edit of an applied set: %v", err)
	}
	m2, cs2 := proposeTwoHunks(t)
	if _, err := m2.ApplySelection(cs2.ID, Selection{"a.txt": {1}}, diskReader(m2.Project()), nil); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct{ path, text, want string }{
		{"a.txt", mine, "only a file with nothing applied"},
		{"b.txt", "b\n", "leaves the file unchanged"},
		{"c.txt", "x", "not a file of this change set"},
		{"b.txt", "nul\x00", "NUL"},
	} {
		if _, err := m2.EditFile(cs2.ID, bad.path, bad.text); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("edit %s: %v, want %q", bad.path, err, bad.want)
		}
	}
}

// TestRevertAndUndoRevert: a partly applied set is reverted (each file
// back to its base), the revert undone (the same hunks applied again),
// and reverted again; each is an entry of the history.
func TestRevertAndUndoRevert(t *testing.T) {
	m, cs := proposeTwoHunks(t)
	read := diskReader(m.Project())
	if _, err := m.ApplySelection(cs.ID, Selection{"a.txt": {2}, "b.txt": nil}, read, nil); err != nil {
		t.Fatal(err)
	}
	partly := strings.Replace(twoHunksBase, "twelve\n", "TWELVE\n", 1)
	got, err := m.Revert(cs.ID, read, nil)
	if err != nil || got.State != StateReverted {
		t.Fatalf("revert: %s %v", got.State, err)
	}
	readIs(t, m, "a.txt", twoHunksBase)
	readIs(t, m, "b.txt", "b\n")
	if _, err := m.ApplySelection(cs.ID, nil, read, nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("apply of a reverted set: %v", err)
	}
	got, err = m.UndoRevert(cs.ID, read, nil)
	if err != nil || got.State != StatePartlyApplied || got.File("a.txt").Hunks[0].State != StatePending {
		t.Fatalf("undo revert: %s %+v %v", got.State, got.File("a.txt").Hunks, err)
	}
	readIs(t, m, "a.txt", partly)
	readIs(t, m, "b.txt", "B\n")
	if _, err := m.UndoRevert(cs.ID, read, nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("undo twice: %v", err)
	}
	writeFile(t, m, "b.txt", "changed by the person\n")
	if _, err := m.Revert(cs.ID, read, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("revert over a changed file: %v", err)
	}
	readIs(t, m, "a.txt", partly)
	writeFile(t, m, "b.txt", "B\n")
	if _, err := m.Revert(cs.ID, read, nil); err != nil {
		t.Fatal(err)
	}
	writeFile(t, m, "a.txt", "typed since the revert\n")
	if _, err := m.UndoRevert(cs.ID, read, nil); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "since the revert") {
		t.Fatalf("undo over a changed file: %v", err)
	}
	readIs(t, m, "b.txt", "b\n")
	got, _ = m.Get(cs.ID)
	var actions []string
	for _, e := range got.History {
		actions = append(actions, e.Action)
	}
	want := []string{ActionProposed, ActionPartlyApplied, ActionReverted, ActionRevertUndone, ActionReverted}
	if strings.Join(actions, ",") != strings.Join(want, ",") {
		t.Fatalf("history %q, want %q", actions, want)
	}
}

// TestSkippedFileOfAnOldStoreAppliesLater: a set stored before per-hunk
// review, partly applied with a file "skipped" and no hunk states, can
// have that file applied now (before, a skipped file never could be).
func TestSkippedFileOfAnOldStoreAppliesLater(t *testing.T) {
	m, cs := proposeTwoHunks(t)
	read := diskReader(m.Project())
	if _, err := m.Apply(cs.ID, []string{"b.txt"}, read, nil); err != nil {
		t.Fatal(err)
	}
	n, _ := parseID(cs.ID)
	err := m.store.UpdateRecord(recordsBucket, n, func(old []byte) ([]byte, error) {
		var rec map[string]any
		if err := json.Unmarshal(old, &rec); err != nil {
			return nil, err
		}
		for _, f := range rec["files"].([]any) {
			f := f.(map[string]any)
			delete(f, "hunks")
			if f["path"] == "a.txt" {
				f["state"] = FileSkipped
			}
		}
		return json.Marshal(rec)
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Get(cs.ID)
	if err != nil || !got.CanApply() || got.File("a.txt").Hunks[0].State != StatePending {
		t.Fatalf("old record: can apply %v, a.txt %+v, %v", got.CanApply(), got.File("a.txt").Hunks, err)
	}
	if full, _ := m.Full(cs.ID); len(full.File("a.txt").Hunks) != 2 {
		t.Fatalf("old record read whole: a.txt has %d hunk states, want 2", len(full.File("a.txt").Hunks))
	}
	if got, err = m.Apply(cs.ID, nil, read, nil); err != nil || got.State != StateApplied {
		t.Fatalf("apply the skipped file: %s %v", got.State, err)
	}
	readIs(t, m, "a.txt", twoHunksNew())
}

// editingWriter is the real writer that, at its first rename, has another
// Manager on the same store (another window) edit the file being applied.
type editingWriter struct {
	OSWriter
	other     *Manager
	id, path  string
	text      string
	editErr   error
	hasEdited bool
}

func (w *editingWriter) Rename(oldpath, newpath string) error {
	if !w.hasEdited {
		w.hasEdited = true
		_, w.editErr = w.other.EditFile(w.id, w.path, w.text)
	}
	return w.OSWriter.Rename(oldpath, newpath)
}

// TestEditDuringAnApplyIsNotOverwritten: the person edits a file's
// proposed text in another window while this one applies the agent's:
// the apply puts every file back and says so, rather than recording hunks
// of a text that is no longer the proposal; then the person's text applies.
func TestEditDuringAnApplyIsNotOverwritten(t *testing.T) {
	m, cs := proposeTwoHunks(t)
	other := NewManager(m.store, m.Project())
	mine := "the person's a.txt\n"
	w := &editingWriter{other: other, id: cs.ID, path: "a.txt", text: mine}
	_, err := m.Apply(cs.ID, []string{"a.txt"}, diskReader(m.Project()), w)
	if w.editErr != nil || err == nil || !strings.Contains(err.Error(), "edited the proposed text of a.txt meanwhile") {
		t.Fatalf("apply during an edit: %v (edit: %v)", err, w.editErr)
	}
	readIs(t, m, "a.txt", twoHunksBase)
	got, err := m.Apply(cs.ID, []string{"a.txt"}, diskReader(m.Project()), nil)
	if err != nil || got.File("a.txt").State != StateApplied {
		t.Fatalf("apply after the edit: %v", err)
	}
	readIs(t, m, "a.txt", mine)
}

// TestEmptySelectionsDoNothing: a path mapped to no hunks selects none of
// it; a selection of nothing at all is refused, and nothing is written.
func TestEmptySelectionsDoNothing(t *testing.T) {
	m, cs := proposeTwoHunks(t)
	read := diskReader(m.Project())
	got, err := m.ApplySelection(cs.ID, Selection{"a.txt": {}, "b.txt": nil}, read, nil)
	if err != nil || got.File("a.txt").State != StatePending || got.File("b.txt").State != StateApplied {
		t.Fatalf("a.txt: none, b.txt: all: %v %+v", err, got.Files)
	}
	readIs(t, m, "a.txt", twoHunksBase)
	if _, err := m.ApplySelection(cs.ID, Selection{"a.txt": {}}, read, nil); !errors.Is(err, errdefs.ErrInvalid) || !strings.Contains(err.Error(), "nothing is selected") {
		t.Fatalf("a selection of nothing: %v", err)
	}
	if _, err := m.RejectSelection(cs.ID, Selection{"a.txt": {}}, "x"); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("a rejection of nothing: %v", err)
	}
	if got, _ := m.Get(cs.ID); len(got.History) != 2 {
		t.Fatalf("history after refusals: %+v", got.History)
	}
}

// TestNoteRecordsAHeldApply: a note is a history entry and nothing else:
// the set stays pending with its hunks undecided, the note is kept in the
// store (a new manager over the same store reads it), a repeat moves the
// last note's time instead of growing the history, and a note on a set
// that is not there says so.
func TestNoteRecordsAHeldApply(t *testing.T) {
	m, cs := proposeTwoHunks(t)
	what := "apply held: a.txt has unsaved edits in the editor; nothing was written"
	got, err := m.Note(cs.ID, ActionHeld, ByPerson, what, []string{"a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StatePending || !got.CanApply() {
		t.Fatalf("after a note the set is %s (can apply %v), want pending", got.State, got.CanApply())
	}
	again := NewManager(m.store, m.Project())
	stored, err := again.Get(cs.ID)
	if err != nil {
		t.Fatal(err)
	}
	last := stored.History[len(stored.History)-1]
	if len(stored.History) != len(cs.History)+1 || last.Action != ActionHeld || last.Who != ByPerson || last.What != what || !slices.Equal(last.Files, []string{"a.txt"}) {
		t.Fatalf("stored history %+v, want the proposal then the held note", stored.History)
	}
	for _, f := range stored.Files {
		for _, h := range f.Hunks {
			if !h.Undecided() {
				t.Errorf("%s hunk %d is %s after a note", f.Path, h.N, h.State)
			}
		}
	}

	repeat, err := m.Note(cs.ID, ActionHeld, ByPerson, what, []string{"a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(repeat.History) != len(stored.History) || repeat.History[len(repeat.History)-1].At.Before(last.At) {
		t.Errorf("a repeated note made %d entries (want %d, the last one's time moved)", len(repeat.History), len(stored.History))
	}
	other, err := m.Note(cs.ID, ActionHeld, ByPerson, "revert held: b.txt has unsaved edits", []string{"b.txt"})
	if err != nil || len(other.History) != len(stored.History)+1 {
		t.Errorf("a different note made %d entries, want %d: %v", len(other.History), len(stored.History)+1, err)
	}

	if _, err := m.Note("cs-999", ActionHeld, ByPerson, what, nil); !errors.Is(err, errdefs.ErrNotFound) {
		t.Errorf("a note on a missing set: %v, want not found", err)
	}
	if _, err := m.Note(cs.ID, ActionHeld, ByPerson, " ", nil); !errors.Is(err, errdefs.ErrInvalid) {
		t.Errorf("an empty note: %v, want invalid", err)
	}
}
