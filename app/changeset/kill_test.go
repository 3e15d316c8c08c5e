package changeset

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"trestle/app/project"
	"trestle/app/store"
	"trestle/internal/testfix"
)

// killFiles is how many files the killed apply touches: enough that a kill
// lands while it is writing.
const killFiles = 120

func killBase(i int) string {
	return fmt.Sprintf("package p\n\n// file %d\n", i) + strings.Repeat("var x = 1\n", 400)
}
func killNew(i int) string { return strings.Replace(killBase(i), "// file", "// changed file", 1) }

// TestKillMidApplyRecoversAtStart is the crash mid-apply: a real child
// process applying a change set of killFiles files is killed (SIGKILL) at
// a different moment each round; then a new Manager starts on the store,
// as the next Trestle process would. Every file must be all old (rolled
// back) or, if the apply was recorded, all new; no temporary, backup or
// journal file may be left; the set's history must say what happened; and
// the next apply must work. The last round is not killed. It runs for
// the apply of `trestle changes` (the old texts in the journal) and the
// window's (backup files).
func TestKillMidApplyRecoversAtStart(t *testing.T) {
	for _, action := range []string{"apply", "apply-buffers"} {
		t.Run(action, func(t *testing.T) { testKillMidApply(t, action) })
	}
}

func testKillMidApply(t *testing.T, action string) {
	dir, db := t.TempDir(), filepath.Join(t.TempDir(), "state.db")
	p, s, changes := killProject(t, dir, db)
	changes = append(changes, Change{Action: ActionCreate, Path: "new/deep/made.go", Content: "package deep\n"})
	cs, err := NewManager(s, p).Propose(diskReader(p), Proposal{Title: "many", Changes: changes})
	if err != nil {
		t.Fatal(err)
	}
	// -1: as soon as the first file is renamed into place (mid-rename phase).
	moments := []time.Duration{-1, 0, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond,
		40 * time.Millisecond, 60 * time.Millisecond, 90 * time.Millisecond, -1, 130 * time.Millisecond, -1}
	outcomes := map[string]int{}
	reverted := false
	for round, after := range moments {
		killAction(t, dir, db, cs.ID, action, after)
		if n := countNew(t, dir); n > 0 && n < killFiles {
			outcomes["half applied before the start"]++
		}
		m := NewManager(s, p) // the next process
		rec, err := m.Start()
		if err != nil {
			t.Fatalf("round %d: start after the kill: %v", round, err)
		}
		changed := countNew(t, dir)
		got, err := m.Get(cs.ID)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case changed == 0 && got.Undecided():
			outcomes["all old"]++
		case changed == killFiles && got.State == StateApplied:
			outcomes["all new"]++
		default:
			t.Fatalf("round %d (killed %v in): %d of %d files new, set %s, recovered %v", round, after, changed, killFiles, got.State, rec)
		}
		if len(rec) > 0 && (len(got.History) == 0 || !strings.Contains(got.History[len(got.History)-1].What, "interrupted apply")) {
			t.Fatalf("round %d: recovered %v but the history says %v", round, rec, got.History)
		}
		if got.State == StateApplied {
			if _, err := os.Stat(filepath.Join(dir, "new/deep/made.go")); err != nil {
				t.Fatalf("round %d: all new but the created file is missing: %v", round, err)
			}
			if _, err := m.Revert(cs.ID, diskReader(p), nil); err != nil {
				t.Fatalf("round %d: revert after recovery: %v", round, err)
			}
			if cs, err = m.Propose(diskReader(p), Proposal{Title: "many", Changes: changes}); err != nil {
				t.Fatal(err)
			}
			reverted = true // a revert leaves the folders it emptied
		} else if _, err := os.Stat(filepath.Join(dir, "new/deep/made.go")); err == nil {
			t.Fatalf("round %d: rolled back but the created file is still there", round)
		} else if _, err := os.Stat(filepath.Join(dir, "new")); err == nil && !reverted {
			t.Fatalf("round %d: rolled back but the created folder is still there", round)
		}
		assertNoLeftovers(t, dir, db)
	}
	// The set applies once nothing kills it.
	m := NewManager(s, p)
	if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
		t.Fatalf("apply after %d kills: %v", len(moments), err)
	}
	if n := countNew(t, dir); n != killFiles {
		t.Fatalf("%d files new after the final apply", n)
	}
	assertNoLeftovers(t, dir, db)
	t.Logf("outcomes over %d kills: %v", len(moments), outcomes)
}

func killName(i int) string { return fmt.Sprintf("f%03d.go", i) }

// killApply starts a child applying set id and SIGKILLs it after the
// given time (-1: once the first file is new).
func killApply(t *testing.T, dir, store, id string, after time.Duration) {
	t.Helper()
	killAction(t, dir, store, id, "apply", after)
}

// noKill lets killAction's child finish.
const noKill = time.Duration(1 << 62)

// killAction is killApply for another action: apply, partial (the even
// files), revert or undo (of a revert). -1 waits until the first file
// changes; noKill lets it finish.
func killAction(t *testing.T, dir, store, id, action string, after time.Duration) {
	t.Helper()
	first, _ := os.ReadFile(filepath.Join(dir, killName(0)))
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidApplyHelper$")
	cmd.Env = append(os.Environ(), "TRESTLE_KILL_APPLY="+dir+"|"+store+"|"+id+"|"+action)
	ready, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	bufio.NewReader(ready).ReadString('\n') // the helper is about to apply
	if after == noKill {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%s, not killed: %v", action, err)
		}
		return
	}
	if after >= 0 {
		time.Sleep(after) // a moment to kill at, not a wait for a condition
	} else {
		waitForChange(filepath.Join(dir, killName(0)), string(first))
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
}

// countNew counts the files that are new, failing on one that is neither
// old nor new.
func countNew(t *testing.T, dir string) int {
	t.Helper()
	changed := 0
	for i := range killFiles {
		data, err := os.ReadFile(filepath.Join(dir, killName(i)))
		switch {
		case err != nil:
			t.Fatalf("%s after the kill: %v", killName(i), err)
		case string(data) == killNew(i):
			changed++
		case string(data) != killBase(i):
			t.Fatalf("%s is half-written after the kill (%d bytes)", killName(i), len(data))
		}
	}
	return changed
}

// assertNoLeftovers checks that no temporary or backup file is left in
// the project and no journal beside the store.
func assertNoLeftovers(t *testing.T, dir, store string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".trestle-") {
			t.Errorf("left behind: %s", path)
		}
		return nil
	})
	entries, _ := os.ReadDir(filepath.Join(store+".blobs", journalFolder))
	for _, e := range entries {
		t.Errorf("journal left behind: %s", e.Name())
	}
}

// TestKillMidApplyHelper is the process TestKillMidApplyLeavesNoHalfWrittenFile kills.
func TestKillMidApplyHelper(t *testing.T) {
	arg := os.Getenv("TRESTLE_KILL_APPLY")
	if arg == "" {
		t.Skip("helper process only")
	}
	parts := strings.SplitN(arg+"|apply", "|", 5)
	p, err := project.Open(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(s, p)
	if _, err := m.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Println("applying")
	var do func(string, ReadFunc, Writer) (ChangeSet, error)
	switch parts[3] {
	case "apply": // as `trestle changes apply`: a nil reader, the old texts in the journal
		do = func(id string, _ ReadFunc, w Writer) (ChangeSet, error) { return m.Apply(id, nil, nil, w) }
	case "apply-buffers": // as the window: backup files
		do = func(id string, r ReadFunc, w Writer) (ChangeSet, error) { return m.Apply(id, nil, r, w) }
	case "partial":
		do = func(id string, _ ReadFunc, w Writer) (ChangeSet, error) {
			return m.ApplySelection(id, evenFiles(), nil, w)
		}
	case "revert":
		do = m.Revert
	case "undo":
		do = m.UndoRevert
	}
	if _, err := do(parts[2], diskReader(p), nil); err != nil {
		t.Fatal(err)
	}
}

// evenFiles selects the even-numbered kill files.
func evenFiles() Selection {
	sel := Selection{}
	for i := 0; i < killFiles; i += 2 {
		sel[killName(i)] = nil
	}
	return sel
}

// killProject writes killFiles files into dir and opens it as a project,
// opens the store at db, and returns the changes that replace each file.
func killProject(t *testing.T, dir, db string) (*project.Project, *store.Store, []Change) {
	t.Helper()
	files := map[string]string{}
	var changes []Change
	for i := range killFiles {
		files[killName(i)] = killBase(i)
		changes = append(changes, Change{Action: ActionReplace, Path: killName(i), Content: killNew(i)})
	}
	testfix.WriteFiles(t, dir, files)
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	return p, s, changes
}

// waitForChange polls path until it no longer holds was or 10 s pass
// (the child may have finished and been recovered already: then it never
// will).
func waitForChange(path, was string) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if data, err := os.ReadFile(path); err == nil && string(data) != was {
			return
		}
	}
}

// TestKillMidPartialApplyRevertAndUndo is the crash test of the other
// transactions: a child applying the even files, then the rest, then
// reverting, then undoing the revert is killed (SIGKILL) at a different
// moment each round; after the next start every file is as the stored
// set says (new exactly where its hunk is applied), and no temporary,
// backup or journal file is left. Whatever a kill rolled back is tried
// again in the next round.
func TestKillMidPartialApplyRevertAndUndo(t *testing.T) {
	dir, db := t.TempDir(), filepath.Join(t.TempDir(), "state.db")
	p, s, changes := killProject(t, dir, db)
	cs, err := NewManager(s, p).Propose(diskReader(p), Proposal{Title: "many", Changes: changes})
	if err != nil {
		t.Fatal(err)
	}
	next := map[string]string{StatePending: "partial", StatePartlyApplied: "apply", StateApplied: "revert", StateReverted: "undo"}
	outcomes := map[string]int{}
	moments := []time.Duration{-1, noKill, -1, noKill, -1, noKill, -1, noKill, 20 * time.Millisecond, noKill, 60 * time.Millisecond, noKill, -1}
	for round, after := range moments {
		before, _ := NewManager(s, p).Get(cs.ID)
		action := next[before.State]
		killAction(t, dir, db, cs.ID, action, after)
		m := NewManager(s, p) // the next process
		if _, err := m.Start(); err != nil {
			t.Fatalf("round %d: start after the kill: %v", round, err)
		}
		got, _ := m.Get(cs.ID)
		outcome := "rolled back"
		if got.State != before.State {
			outcome = "done"
		}
		outcomes[action+" "+outcome]++
		countNew(t, dir) // fails on a half-written file
		for i := range killFiles {
			data, _ := os.ReadFile(filepath.Join(dir, killName(i)))
			applied := got.File(killName(i)).State == StateApplied
			if (string(data) == killNew(i)) != applied {
				t.Fatalf("round %d (%s killed %v in, %s): %s is new %v, but its state is %s", round, action, after, outcome,
					killName(i), string(data) == killNew(i), got.File(killName(i)).State)
			}
		}
		assertNoLeftovers(t, dir, db)
	}
	t.Logf("outcomes: %v", outcomes)
}

// TestKillRecoveredByALiveProcessAtApply: a process that started before
// another one was killed mid-apply recovers that apply when it applies
// itself, instead of refusing on files the kill left new.
func TestKillRecoveredByALiveProcessAtApply(t *testing.T) {
	dir, db := t.TempDir(), filepath.Join(t.TempDir(), "state.db")
	p, s, changes := killProject(t, dir, db)
	live := NewManager(s, p)
	cs, err := live.Propose(diskReader(p), Proposal{Title: "many", Changes: changes})
	if err != nil {
		t.Fatal(err)
	}
	killApply(t, dir, db, cs.ID, -1)
	if _, err := live.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
		if got, _ := live.Get(cs.ID); got.State != StateApplied {
			t.Fatalf("apply after another process was killed applying: %v", err)
		}
	}
	if n := countNew(t, dir); n != killFiles {
		t.Fatalf("%d of %d files new", n, killFiles)
	}
	assertNoLeftovers(t, dir, db)
}

// TestRecoverLeavesALiveApplyAlone: a journal whose process still holds
// it (an apply under way in another process or Manager) is not touched.
func TestRecoverLeavesALiveApplyAlone(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "package a\n"})
	m := newManager(t, p)
	cs := proposeOne(t, m, "a.go")
	abs := filepath.Join(p.Root, "a.go")
	ops := []fileOp{{rel: "a.go", abs: abs, data: "new a.go\n", mode: NewFileMode}}
	j := newJournal(OSWriter{Root: p.Root}, "apply", cs.ID, p.Root, ops)
	held, err := m.writeJournal(j)
	if err != nil {
		t.Fatal(err)
	}
	temp := filepath.Join(p.Root, tempPrefix(abs, j.ID)+"x")
	os.WriteFile(temp, []byte("new a.go\n"), 0o644)
	if err := os.Link(abs, backupPath(abs, j.ID)); err != nil {
		t.Fatal(err)
	}
	other := NewManager(m.store, p)
	if rec, err := other.Recover(); err != nil || len(rec) != 0 {
		t.Fatalf("recovered a live apply: %v %v", rec, err)
	}
	for _, f := range []string{temp, backupPath(abs, j.ID), held.path} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s of the live apply was removed: %v", f, err)
		}
	}
	held.f.Close() // the applying process dies without removing its journal
	rec, err := other.Recover()
	if err != nil || len(rec) != 1 || !strings.Contains(rec[0].What, "rolled back") {
		t.Fatalf("after its process died: %v %v", rec, err)
	}
	for _, f := range []string{temp, backupPath(abs, j.ID), held.path} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s left after recovery", f)
		}
	}
	if data, _ := os.ReadFile(abs); string(data) != "package a\n" {
		t.Errorf("a.go is %q after recovery", data)
	}
}
