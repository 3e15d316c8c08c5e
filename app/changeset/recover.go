package changeset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"trestle/app/errdefs"
)

// Recovery is what Start did about one apply or revert a crash
// interrupted.
type Recovery struct {
	ID   string // the change set
	What string // e.g. "interrupted apply rolled back at start"
}

// Recover finishes what interrupted applies and reverts of the project
// left, from their journals: one that was recorded is finished (its
// backups and temporary files removed: every file is new), any other is
// rolled back (every file put back as it was, created files and folders
// removed). The set's history says which. A journal another live process
// holds is left alone. Start calls it; it is safe for concurrent use.
func (m *Manager) Recover() ([]Recovery, error) {
	dir, err := m.store.Folder(journalFolder)
	if err != nil {
		return nil, err
	}
	journals, temps, err := journalFiles(dir)
	if err != nil {
		return nil, fmt.Errorf("recover interrupted applies: %w", err)
	}
	for _, t := range temps { // a journal killed before it was in place: nothing was written
		removeIfUnlocked(t)
	}
	var out []Recovery
	var errs []error
	for _, path := range journals {
		r, err := m.recoverJournal(path)
		if err != nil {
			errs = append(errs, err)
		}
		if r.ID != "" {
			out = append(out, r)
		}
	}
	return out, errors.Join(errs...)
}

// removeIfUnlocked removes path unless a live process holds it locked.
func removeIfUnlocked(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if ok, _ := lockFile(f); ok {
		os.Remove(path)
	}
}

// recoverJournal recovers the journal at path if it is this project's and
// no live process holds it.
func (m *Manager) recoverJournal(path string) (Recovery, error) {
	f, err := os.Open(path)
	if err != nil {
		return Recovery{}, nil // finished and removed meanwhile
	}
	defer f.Close()
	if ok, err := lockFile(f); !ok || err != nil {
		return Recovery{}, nil // its apply is still running
	}
	if !stillThere(f, path) {
		return Recovery{}, nil
	}
	var j journal
	data, err := os.ReadFile(path)
	if err == nil {
		j, err = parseJournal(data)
	}
	if err != nil {
		os.Remove(path) // torn or foreign: it never guarded a rename (see writeJournal)
		return Recovery{}, nil
	}
	if j.Project != m.project.Root {
		return Recovery{}, nil // another project's, for its own next start
	}
	r, err := m.recoverOne(j)
	if err != nil {
		return r, fmt.Errorf("recover the interrupted %s of %s (journal %s kept for the next start): %w", j.What, j.Set, path, err)
	}
	os.Remove(path)
	return r, nil
}

// stillThere reports whether f is still the file at path (not removed by
// the process that finished with it before we got its lock).
func stillThere(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// recoverOne rolls j forward when its result was recorded, else back, and
// records what it did in the set's history.
func (m *Manager) recoverOne(j journal) (Recovery, error) {
	cs, err := m.get(j.Set)
	recorded := err == nil && cs.Txn == j.ID
	tw, closeRoot, rootErr := txnWriter(nil, m.project.Root)
	if rootErr != nil {
		return Recovery{}, rootErr
	}
	defer closeRoot()
	w := tw.(OSWriter)
	var problems []string
	for i := len(j.Steps) - 1; i >= 0; i-- {
		if err := m.recoverStep(w, j, j.Steps[i], recorded); err != nil {
			problems = append(problems, err.Error())
		}
	}
	what := "interrupted " + j.What + " rolled back at start: every file is as it was before"
	if recorded {
		what = "interrupted " + j.What + " finished at start: it had been recorded; its backups were removed"
	}
	if len(problems) > 0 {
		return Recovery{}, errors.New(strings.Join(problems, "; "))
	}
	if err == nil {
		_, err = m.update(j.Set, func(cs *ChangeSet) error {
			m.addHistory(cs, ActionRecovered, ByTrestle, what, nil)
			return nil
		})
	}
	if errors.Is(err, errdefs.ErrNotFound) {
		err = nil // the set was pruned (or the store started over); the files are back all the same
	}
	return Recovery{ID: j.Set, What: what}, err
}

// recoverStep puts one file back (or, when recorded, only cleans up).
func (m *Manager) recoverStep(w OSWriter, j journal, st journalStep, recorded bool) error {
	abs := filepath.Join(m.project.Root, filepath.FromSlash(st.Rel))
	backup := backupPath(abs, j.ID)
	_, backupErr := w.Lstat(backup)
	hasBackup := backupErr == nil
	switch {
	case st.OldKept && !recorded:
		// The old content is in the journal: write it back if the file
		// holds what the apply wrote (it was renamed into place).
		if data, err := w.ReadFile(abs); err == nil && hashText(string(data)) == st.NewSHA256 {
			old, whole := j.old(st)
			if !whole {
				return fmt.Errorf("restore %s: the journal does not hold its old content whole", st.Rel)
			}
			if err := writeBack(w, abs, j.ID, old, fs.FileMode(st.Mode)); err != nil {
				return fmt.Errorf("restore %s: %v", st.Rel, err)
			}
		}
	case recorded:
		if hasBackup {
			w.Remove(backup)
		}
	case hasBackup:
		// The old content, whole: put it back. If it is still a hard link
		// to the untouched file, the rename does nothing; drop the link.
		if err := w.Rename(backup, abs); err != nil {
			return fmt.Errorf("restore %s: %v (its old content is in %s)", st.Rel, err, backup)
		}
		if _, err := w.Lstat(backup); err == nil {
			w.Remove(backup)
		}
	case !st.Existed && !st.Remove:
		// Created by the apply: remove it if it is what the apply wrote.
		if data, err := w.ReadFile(abs); err == nil && hashText(string(data)) == st.NewSHA256 {
			if err := w.Remove(abs); err != nil {
				return fmt.Errorf("remove created %s: %v", st.Rel, err)
			}
		}
	}
	removeTemps(w, abs, j.ID)
	if !recorded {
		for i := len(st.Dirs) - 1; i >= 0; i-- {
			w.Remove(filepath.Join(m.project.Root, filepath.FromSlash(st.Dirs[i]))) // only if empty
		}
	}
	return nil
}

// removeTemps removes the temporary files of transaction id beside abs.
func removeTemps(w OSWriter, abs, id string) {
	entries, err := w.ReadDir(filepath.Dir(abs))
	if err != nil {
		return
	}
	prefix := tempPrefix(abs, id)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			w.Remove(filepath.Join(filepath.Dir(abs), e.Name()))
		}
	}
}
