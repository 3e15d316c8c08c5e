package changeset

import (
	"bytes"
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
	// tail holds the old texts the steps keep (journalStep.OldLen): on
	// disk it follows the JSON and a newline, raw, as written.
	tail []byte
}

// journalStep is one file of a journal.
type journalStep struct {
	Rel       string   `json:"rel"`
	Existed   bool     `json:"existed"`              // the file was there before
	Remove    bool     `json:"remove,omitempty"`     // the step deletes it
	NewSHA256 string   `json:"new_sha256,omitempty"` // what the step writes
	Dirs      []string `json:"dirs,omitempty"`       // folders it creates, project-relative, outermost first
	// The file's old content is in the journal's tail at OldAt, OldLen
	// bytes, with permission bits Mode, when OldKept: no backup file.
	OldKept bool   `json:"old_kept,omitempty"`
	OldAt   int    `json:"old_at,omitempty"`
	OldLen  int    `json:"old_len,omitempty"`
	Mode    uint32 `json:"mode,omitempty"`
}

// old returns the old content st keeps in j's tail, or false when the
// tail does not hold it whole (a journal cut short before it was flushed,
// which guarded no rename).
func (j journal) old(st journalStep) ([]byte, bool) {
	if !st.OldKept || st.OldAt < 0 || st.OldLen < 0 || st.OldAt > len(j.tail) || st.OldLen > len(j.tail)-st.OldAt {
		return nil, false
	}
	return j.tail[st.OldAt : st.OldAt+st.OldLen], true
}

// parseJournal reads a journal file: its JSON, then the tail after the
// newline that ends it (none in a journal of a version that kept every
// old file as a backup).
func parseJournal(data []byte) (journal, error) {
	var j journal
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&j); err != nil {
		return journal{}, err
	}
	rest := data[dec.InputOffset():]
	if len(rest) > 0 && rest[0] == '\n' {
		j.tail = rest[1:]
	} else if len(rest) > 0 {
		return journal{}, errors.New("journal: unexpected data after its JSON")
	}
	return j, nil
}

// newJournal plans ops of set id for project root, looking at the files
// through w.
func newJournal(w Writer, what, set, root string, ops []fileOp) journal {
	existed := make([]bool, len(ops))
	for i, op := range ops {
		_, err := w.Lstat(op.abs)
		existed[i] = err == nil
	}
	return planJournal(w, newTxnID(), what, set, root, ops, existed)
}

// journalOf is the journal of the steps t inspected (inspectFiles), which
// know whether each file existed: set's transaction t.id.
func journalOf(t *fileTxn, what, set string) journal {
	ops := make([]fileOp, len(t.steps))
	existed := make([]bool, len(t.steps))
	for i, s := range t.steps {
		ops[i], existed[i] = s.fileOp, s.existed
	}
	return planJournal(t.w, t.id, what, set, t.root, ops, existed)
}

// planJournal is the journal of transaction id: ops, whether each file
// existed, and the folders each creates (looked at through w).
func planJournal(w Writer, id, what, set, root string, ops []fileOp, existed []bool) journal {
	j := journal{ID: id, Set: set, What: what, Project: root}
	size := 0
	for i, op := range ops {
		if op.hasOld && existed[i] && !op.remove {
			size += len(op.old)
		}
	}
	j.tail = make([]byte, 0, size) // one allocation: appending 200 files' texts one by one took a tenth of an apply
	existing := map[string]bool{}  // folders seen there: most files of a set share a few
	for i, op := range ops {
		st := journalStep{Rel: op.rel, Remove: op.remove, Existed: existed[i]}
		if op.hasOld && existed[i] && !op.remove {
			st.OldKept, st.OldAt, st.OldLen, st.Mode = true, len(j.tail), len(op.old), uint32(op.mode.Perm())
			j.tail = append(j.tail, op.old...)
		}
		if !op.remove {
			if st.NewSHA256 = op.sum; st.NewSHA256 == "" {
				st.NewSHA256 = hashText(op.data)
			}
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
	return m.writeJournalFlushed(j, true)
}

// writeJournalFlushed is writeJournal, flushing the journal only when
// flush is set: otherwise the caller must call flush before the journal
// guards anything a crash could leave (before the first rename), as
// commit does, with the files.
func (m *Manager) writeJournalFlushed(j journal, flush bool) (*heldJournal, error) {
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
		_, err = f.Write(append(data, '\n'))
	}
	if err == nil && len(j.tail) > 0 {
		_, err = f.Write(j.tail)
	}
	if err == nil {
		err = os.Rename(f.Name(), h.path)
	}
	if err == nil && flush {
		err = h.flush()
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		os.Remove(h.path)
		return nil, fmt.Errorf("write the journal: %w", err)
	}
	return h, nil
}

// flush puts the journal and its name in its folder on disk.
func (h *heldJournal) flush() error {
	if err := h.f.Sync(); err != nil {
		return err
	}
	return syncFolder(filepath.Dir(h.path))
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
