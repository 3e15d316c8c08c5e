package changeset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// manyFiles proposes replacing n files, for transaction tests.
func manyFiles(t *testing.T, n int) (*Manager, ChangeSet) {
	t.Helper()
	files := map[string]string{}
	var changes []Change
	for i := range n {
		name := fmt.Sprintf("d%d/f%d.go", i%3, i)
		files[name] = fmt.Sprintf("package d\n// %d\n", i)
		changes = append(changes, Change{Path: name, Action: ActionReplace, Content: fmt.Sprintf("package d\n// %d changed\n", i)})
	}
	changes = append(changes, Change{Path: "new/deep/made.go", Action: ActionCreate, Content: "package deep\n"})
	p := newProject(t, files)
	m := newManager(t, p)
	cs, err := m.Propose(diskReader(p), Proposal{Title: "many", Changes: changes})
	if err != nil {
		t.Fatal(err)
	}
	return m, cs
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd here")
	}
	return len(entries)
}

// TestTransactionsOpenOneRootAndLeakNothing: an apply, a partial apply, a
// revert and an undo each open the project's os.Root once, and each folder
// they touch at most once (see folders), read and write through them, and
// leave no descriptor open after they return (before, a rename or link
// opened a second root and never closed it: two descriptors per file left
// to the garbage collector).
func TestTransactionsOpenOneRootAndLeakNothing(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // nothing closes a leak behind our back
	runtime.GC()
	m, cs := manyFiles(t, 30)
	read := diskReader(m.Project())
	steps := []struct {
		name string
		run  func() (ChangeSet, error)
	}{
		{"partial apply", func() (ChangeSet, error) {
			return m.ApplySelection(cs.ID, Selection{"d0/f0.go": nil, "d1/f1.go": {1}}, read, nil)
		}},
		{"apply of the rest", func() (ChangeSet, error) { return m.Apply(cs.ID, nil, read, nil) }},
		{"revert", func() (ChangeSet, error) { return m.Revert(cs.ID, read, nil) }},
		{"undo of the revert", func() (ChangeSet, error) { return m.UndoRevert(cs.ID, read, nil) }},
	}
	for _, s := range steps {
		m.Get(cs.ID) // Start and a store open, outside the count
		fds, roots, folders := openFDs(t), rootsOpened.Load(), foldersOpened.Load()
		if _, err := s.run(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if n := rootsOpened.Load() - roots; n != 1 {
			t.Errorf("%s opened the project root %d times, want once", s.name, n)
		}
		// d0, d1, d2, new and new/deep: each at most once, however many files are in it.
		if n := foldersOpened.Load() - folders; holdFolders && (n < 1 || n > 5) {
			t.Errorf("%s opened %d folders, want each of the 5 at most once", s.name, n)
		}
		if after := openFDs(t); after != fds {
			t.Errorf("%s: %d descriptors open before, %d after", s.name, fds, after)
		}
	}
}

// stickyBackups is the real writer on a file system where backups cannot
// be removed (say, a folder made read-only by another program meanwhile).
type stickyBackups struct{ OSWriter }

func (w stickyBackups) Remove(name string) error {
	if strings.Contains(filepath.Base(name), ".trestle-backup-") {
		return errors.New("operation not permitted")
	}
	return w.OSWriter.Remove(name)
}

// TestBackupsLeftAreReported: an apply whose backups cannot be removed is
// complete, and says which backups are left, on the result, in the
// stored set and in its history (before, the list was dropped).
func TestBackupsLeftAreReported(t *testing.T) {
	m, cs := manyFiles(t, 2)
	got, err := m.Apply(cs.ID, nil, diskReader(m.Project()), stickyBackups{OSWriter{Root: m.Project().Root}})
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StateApplied || len(got.Leftovers) != 2 {
		t.Fatalf("state %s, leftovers %v", got.State, got.Leftovers)
	}
	for _, rel := range got.Leftovers {
		if _, err := os.Stat(filepath.Join(m.Project().Root, rel)); err != nil {
			t.Errorf("reported backup %s: %v", rel, err)
		}
	}
	stored, _ := m.Get(cs.ID)
	last := stored.History[len(stored.History)-1]
	if len(stored.Leftovers) != 2 || last.Action != ActionLeftovers || !strings.Contains(last.What, got.Leftovers[0]) {
		t.Fatalf("stored leftovers %v, last history %+v", stored.Leftovers, last)
	}
}

// TestJournalGoesWithFilesOnlyWhenOneSyncfsFlushesBoth: the journal is
// left for the files' flush only when that flush is one syncfs of a file
// system that also holds the journal folder: the real writer, enough
// files, one file system. Otherwise it is flushed on its own first.
func TestJournalGoesWithFilesOnlyWhenOneSyncfsFlushesBoth(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("syncfs is Linux's")
	}
	m, _ := manyFiles(t, 2)
	dir, err := m.store.Folder(journalFolder)
	if err != nil {
		t.Fatal(err)
	}
	if !sameFileSystem(dir, m.project.Root) {
		t.Skip("the test's store and project folders are on two file systems here")
	}
	w := OSWriter{Root: m.project.Root}
	if !m.journalGoesWithFiles(w, syncfsFrom) {
		t.Errorf("%d files through the real writer, one file system: the journal is flushed on its own", syncfsFrom)
	}
	if m.journalGoesWithFiles(w, syncfsFrom-1) {
		t.Errorf("%d files (flushed one by one): the journal waits for them", syncfsFrom-1)
	}
	if m.journalGoesWithFiles(&faultyWriter{OSWriter: w}, MaxFiles) {
		t.Error("a writer that is not the real one: the journal waits for its Sync")
	}
	shm, err := os.MkdirTemp("/dev/shm", "trestle-test-")
	if err != nil {
		return
	}
	defer os.RemoveAll(shm)
	if !sameFileSystem(shm, m.project.Root) {
		p2 := newProject(t, nil)
		p2.Root = shm
		other := NewManager(m.store, p2)
		if other.journalGoesWithFiles(w, MaxFiles) {
			t.Errorf("project on another file system (%s): the journal waits for a syncfs that does not flush it", shm)
		}
	}
}
