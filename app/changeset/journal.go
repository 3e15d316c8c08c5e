package changeset

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// journalFolder names the folder beside the store that holds the intent
// journals of applies and reverts under way.
const journalFolder = "changeset-journal"

// journal is the intent of one apply or revert, written and flushed before
// its first file is touched and removed once it is recorded: what a
// process that starts after a crash needs to put every file back. The
// process writing the files holds the journal file locked, so no other
// process recovers an apply that is still running.
type journal struct {
	ID      string        `json:"id"`      // the transaction: names its temporary and backup files
	Set     string        `json:"set"`     // the change set
	What    string        `json:"what"`    // "apply" or "revert"
	Project string        `json:"project"` // project root
	Steps   []journalStep `json:"steps"`
}

// journalStep is one file of a journal.
type journalStep struct {
	Rel       string   `json:"rel"`
	Existed   bool     `json:"existed"`              // the file was there before
	Remove    bool     `json:"remove,omitempty"`     // the step deletes it
	NewSHA256 string   `json:"new_sha256,omitempty"` // what the step writes
	Dirs      []string `json:"dirs,omitempty"`       // folders it creates, project-relative, outermost first
}

// newJournal plans ops of set id for project root, looking at the files
// through w.
func newJournal(w Writer, what, set, root string, ops []fileOp) journal {
	j := journal{ID: newTxnID(), Set: set, What: what, Project: root}
	existing := map[string]bool{} // folders seen there: most files of a set share a few
	for _, op := range ops {
		st := journalStep{Rel: op.rel, Remove: op.remove}
		if _, err := w.Lstat(op.abs); err == nil {
			st.Existed = true
		}
		if !op.remove {
			st.NewSHA256 = hashText(op.data)
			for dir := filepath.Dir(op.abs); dir != root && dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
				if existing[dir] {
					break
				}
				if _, err := w.Lstat(dir); err == nil {
					existing[dir] = true
					break
				}
				rel, _ := filepath.Rel(root, dir)
				st.Dirs = append([]string{filepath.ToSlash(rel)}, st.Dirs...)
			}
		}
		j.Steps = append(j.Steps, st)
	}
	return j
}

// heldJournal is a journal on disk, locked by this process.
type heldJournal struct {
	path string
	f    *os.File
}

// writeJournal writes j beside the store, flushed, and keeps it locked:
// a temporary file is locked, written, flushed and renamed into place,
// so the journal is never visible unlocked or in part.
func (m *Manager) writeJournal(j journal) (*heldJournal, error) {
	dir, err := m.store.Folder(journalFolder)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("write the journal: %w", err)
	}
	h := &heldJournal{path: filepath.Join(dir, j.ID+".json"), f: f}
	ok, err := lockFile(f)
	if err == nil && !ok {
		err = errors.New("a fresh journal file is locked by another process")
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(f.Name(), h.path)
	}
	if err == nil {
		err = syncFolder(dir)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		os.Remove(h.path)
		return nil, fmt.Errorf("write the journal: %w", err)
	}
	return h, nil
}

// done removes the journal and lets go of it: the files it describes are
// all new or all old, and recorded.
func (h *heldJournal) done() {
	os.Remove(h.path)
	h.f.Close()
}

// syncFolder flushes a folder's entries to disk.
func syncFolder(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, fs.ErrInvalid) {
		return err
	}
	return nil
}

// journalFiles lists the journals and leftover temporary files in dir.
func journalFiles(dir string) (journals, temps []string, err error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case strings.HasPrefix(name, ".tmp-"):
			temps = append(temps, filepath.Join(dir, name))
		case strings.HasSuffix(name, ".json"):
			journals = append(journals, filepath.Join(dir, name))
		}
	}
	return journals, temps, err
}
