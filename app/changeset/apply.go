package changeset

import (
	"fmt"
	"io/fs"
	"os"
	"strings"

	"trestle/app/errdefs"
	"trestle/app/project"
)

// conflict is one file whose current content is not what an apply or a
// revert expects.
type conflict struct {
	path, detail string
}

// conflictError lists the conflicts, wrapping ErrConflict and errdefs.ErrInvalid.
func conflictError(what string, cs []conflict) error {
	lines := make([]string, len(cs))
	for i, c := range cs {
		lines[i] = c.detail
	}
	return fmt.Errorf("%s refused, nothing was written: %s: %w (%w)", what, strings.Join(lines, "; "), ErrConflict, errdefs.ErrInvalid)
}

// Apply applies every pending hunk of the files include names (paths;
// empty means every file with hunks pending): ApplySelection with each
// path mapped to nil. Safe for concurrent use.
func (m *Manager) Apply(id string, include []string, current ReadFunc, w Writer) (ChangeSet, error) {
	var sel Selection
	if len(include) > 0 {
		sel = Selection{}
		for _, p := range include {
			sel[p] = nil
		}
	}
	return m.ApplySelection(id, sel, current, w)
}

// ApplySelection writes exactly the hunks sel accepts (nil or empty: every
// pending hunk) of change set id, which must have hunks pending. First it
// checks every selected file's current content, as current reads it,
// against what the set expects there (its base, or what earlier applies
// of the set wrote): on any mismatch it writes nothing, marks those hunks
// conflict (they are not forced) and returns an error wrapping
// ErrConflict and errdefs.ErrInvalid that names the files. Then it writes each
// file (its base with every hunk applied so far and the ones selected)
// through a temporary file and a rename under an intent journal, keeping
// the mode; if any write fails every file is put back and the error says
// which and why. What is not selected stays pending, to apply later. It
// records the outcome per hunk and in the history and returns the updated
// set. A nil current reads the files on disk: then the apply keeps the
// old content of each file it replaces in its journal (written and
// flushed before the first rename) rather than as a backup file beside it,
// since what it checked is what it replaces; a current that may read an
// editor's buffer keeps backup files. Safe for concurrent use; applies and
// reverts of one Manager run one at a time.
func (m *Manager) ApplySelection(id string, sel Selection, current ReadFunc, w Writer) (ChangeSet, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fromDisk := current == nil
	cs, err := m.begin("apply", id)
	if err != nil {
		return ChangeSet{}, err
	}
	if !cs.CanApply() {
		return ChangeSet{}, fmt.Errorf("apply %s: it is %s, with nothing pending: %w", id, cs.State, errdefs.ErrInvalid)
	}
	if len(sel) == 0 {
		sel = everythingPending(cs)
	}
	chosen, err := choose(cs, sel)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("apply %s: %w", id, err)
	}
	paths, olds, checked, err := m.checkCurrent(cs, chosen, current, fromDisk)
	if err != nil {
		return checked, err
	}
	w, closeRoot, err := txnWriter(w, m.project.Root) // commit goes on with the same root
	if err != nil {
		return ChangeSet{}, fmt.Errorf("apply %s: nothing was written: %w", id, err)
	}
	defer closeRoot()
	ops, sums, err := m.applyOps(cs, chosen, paths, olds, readDirOf(w))
	if err != nil {
		return ChangeSet{}, fmt.Errorf("apply %s: %w", id, err)
	}
	return m.commit("apply", cs, w, ops, func(rec *ChangeSet, modes map[string]fs.FileMode) {
		m.recordApplied(rec, cs, chosen, sums, modes)
	})
}

// begin starts an apply, revert or undo: it first undoes an apply or
// revert another process was killed in since this one started, so its
// files are whole again, then reads set id whole.
func (m *Manager) begin(verb, id string) (ChangeSet, error) {
	if _, err := m.Recover(); err != nil {
		return ChangeSet{}, fmt.Errorf("%s %s: %w", verb, id, err)
	}
	cs, err := m.Full(id)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("%s: %w", verb, err)
	}
	return cs, nil
}

// expected is what the set expects f to hold before its next apply: its
// base, or what the applies so far wrote.
func expected(f FileChange) (exists bool, sum string) {
	if len(hunksIn(f, StateApplied)) > 0 {
		return f.Action != ActionDelete, f.AppliedSHA256
	}
	return f.BaseExists, f.BaseSHA256
}

// checkCurrent compares each chosen file with what the set expects there
// and returns their confined paths, for the write; on a mismatch it
// records the conflict on the chosen hunks and returns the error. With
// fromDisk (current reads the files on disk) it also returns the text of
// each file that exists, which the apply then keeps in its journal instead
// of a backup file (see fileOp.old), unless they are more than
// oldsInJournalMax bytes together.
func (m *Manager) checkCurrent(cs ChangeSet, chosen map[string][]int, current ReadFunc, fromDisk bool) (map[string]project.Path, map[string]string, ChangeSet, error) {
	var checks []fileCheck
	for _, f := range cs.Files {
		if _, ok := chosen[f.Path]; ok {
			exists, sum := expected(f)
			checks = append(checks, fileCheck{path: f.Path, exists: exists, sum: sum})
		}
	}
	read := summed(current)
	if fromDisk {
		read = m.diskSummed
	}
	m.compareAll(checks, read)
	var found []conflict
	paths := make(map[string]project.Path, len(checks))
	var olds map[string]string
	if fromDisk {
		olds = make(map[string]string, len(checks))
	}
	size := 0
	for _, c := range checks {
		if c.err != nil {
			return nil, nil, ChangeSet{}, fmt.Errorf("apply %s: %w", cs.ID, c.err)
		}
		if c.detail != "" {
			found = append(found, conflict{c.path, c.detail})
		}
		paths[c.path] = c.cp
		if olds != nil && c.exists {
			olds[c.path], size = c.text, size+len(c.text)
		}
	}
	if size > oldsInJournalMax {
		olds = nil
	}
	if len(found) == 0 {
		return paths, olds, cs, nil
	}
	updated, err := m.update(cs.ID, func(rec *ChangeSet) error { m.markConflict(rec, cs, chosen, found); return nil })
	if err != nil {
		return nil, nil, ChangeSet{}, fmt.Errorf("apply %s: record conflict: %w (%w)", cs.ID, err, conflictError("apply", found))
	}
	return nil, nil, attach(updated, bodiesOf(cs)), fmt.Errorf("apply %s: %w", cs.ID, conflictError("apply", found))
}

// markConflict records found on the chosen hunks of the record rec, if
// they are still undecided. full is the set whole.
func (m *Manager) markConflict(rec *ChangeSet, full ChangeSet, chosen map[string][]int, found []conflict) {
	if !rec.CanApply() {
		return
	}
	var files []string
	for _, c := range found {
		var ns []int
		for _, n := range chosen[c.path] {
			if f := rec.File(c.path); f != nil && n <= len(f.Hunks) && undecidedHunk(f.Hunks[n-1].State) {
				ns = append(ns, n)
			}
		}
		f := setHunks(rec, full, c.path, ns, StateConflict)
		for _, n := range ns {
			f.Hunks[n-1].Detail = c.detail + since(*f)
		}
		files = append(files, c.path)
	}
	settle(rec)
	for _, c := range found {
		if f := rec.File(c.path); f != nil {
			f.Detail = c.detail + since(*f)
		}
	}
	m.addHistory(rec, ActionConflict, ByPerson, "apply refused, nothing was written: "+conflictList(found), files)
}

// since says since what a file was expected unchanged.
func since(f FileChange) string {
	if len(hunksIn(f, StateApplied)) > 0 {
		return " since it was partly applied"
	}
	return " since the proposal"
}

func conflictList(found []conflict) string {
	s := make([]string, len(found))
	for i, c := range found {
		s[i] = c.detail
	}
	return strings.Join(s, "; ")
}

// applyOps turns the chosen hunks into file operations, at the paths
// checkCurrent confined: each file gets its base with the hunks applied so
// far and the chosen ones. It returns the hashes of the texts written, by
// path (each text is hashed once, for the journal and the record).
func (m *Manager) applyOps(cs ChangeSet, chosen map[string][]int, paths map[string]project.Path, olds map[string]string, readDir func(string) ([]fs.DirEntry, error)) ([]fileOp, map[string]string, error) {
	var ops []fileOp
	sums := map[string]string{}
	headIn := headFinder(m.project.Root, readDir)
	for _, f := range cs.Files {
		ns, ok := chosen[f.Path]
		if !ok {
			continue
		}
		if why := gitMetadata(f.Path, headIn); why != "" {
			return nil, nil, invalid("%s: %s", f.Path, why)
		}
		cp, ok := paths[f.Path]
		if !ok || cp.IsZero() {
			return nil, nil, fmt.Errorf("%s was not checked before the write: %w", f.Path, errdefs.ErrInvalid)
		}
		text := textWith(f, append(hunksIn(f, StateApplied), ns...))
		sums[f.Path] = hashText(text)
		op := fileOp{rel: f.Path, abs: cp.Abs(), remove: f.Action == ActionDelete, data: text, sum: sums[f.Path], mode: NewFileMode}
		op.old, op.hasOld = olds[f.Path]
		op.hasOld = op.hasOld && !op.remove
		ops = append(ops, op)
	}
	return ops, sums, nil
}

// readDirOf lists folders through w when it is an OSWriter (through its
// os.Root), else directly.
func readDirOf(w Writer) func(string) ([]fs.DirEntry, error) {
	if ow, ok := w.(OSWriter); ok {
		return ow.ReadDir
	}
	return os.ReadDir
}

// textWith is f's base with the hunks accepted applied: its new content
// when they are all of them.
func textWith(f FileChange, accepted []int) string {
	if len(accepted) == len(f.Hunks) {
		return f.New
	}
	set := make(map[int]bool, len(accepted))
	for _, n := range accepted {
		set[n] = true
	}
	return compose(f.Base, planHunks(f.Base, f.New), func(n int) bool { return set[n] })
}

// commit writes ops under an intent journal, records the result with
// record in one store transaction (with the journal's id, so a recovery
// knows it was recorded), and only then drops the backups and the
// journal; if recording fails the files are put back. full is the set
// whole; the result has its bodies.
func (m *Manager) commit(verb string, full ChangeSet, w Writer, ops []fileOp, record func(*ChangeSet, map[string]fs.FileMode)) (ChangeSet, error) {
	what := verb + " " + full.ID
	w, closeRoot, err := txnWriter(w, m.project.Root)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("%s: nothing was written: %w", what, err)
	}
	defer closeRoot()
	txn, err := inspectFiles(w, m.project.Root, newTxnID(), ops)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("%s: %w", what, err)
	}
	j := journalOf(txn, verb, full.ID)
	withFiles := m.journalGoesWithFiles(w, len(ops))
	held, err := m.writeJournalFlushed(j, !withFiles)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("%s: nothing was written: %w", what, err)
	}
	defer held.done()
	if withFiles {
		txn.flush = func(names []string) error { return flushWithJournal(w, names, held) }
	}
	if err := txn.write(); err != nil {
		return ChangeSet{}, fmt.Errorf("%s: %w", what, err)
	}
	cs, err := m.update(full.ID, func(cs *ChangeSet) error {
		if edited := editedMeanwhile(*cs, full, ops); edited != "" {
			return fmt.Errorf("the person edited the proposed text of %s meanwhile (in another window or process); %s again: %w", edited, verb, errdefs.ErrInvalid)
		}
		record(cs, txn.modes())
		cs.Txn = j.ID
		return nil
	})
	if err != nil {
		restored, problems := txn.rollback()
		return ChangeSet{}, fmt.Errorf("%s: record the result: %w; put back %s; not put back: %s",
			what, err, strings.Join(restored, ", "), strings.Join(problems, "; "))
	}
	if left := txn.finish(); len(left) > 0 {
		cs = m.reportLeftovers(cs, left)
	}
	return attach(cs, bodiesOf(full)), nil
}

// journalGoesWithFiles reports whether the journal of a transaction of n
// files through w can be flushed with its files rather than before them:
// when the real writer flushes them with one syncfs (n >= syncfsFrom) of
// the file system that also holds the journal folder. That one flush then
// puts both on disk before the first rename, instead of three (the
// journal, its folder, the files), each of which waits on the disk and,
// on a busy machine, behind everything else written to it.
func (m *Manager) journalGoesWithFiles(w Writer, n int) bool {
	if _, ok := w.(OSWriter); !ok || n < syncfsFrom {
		return false
	}
	dir, err := m.store.Folder(journalFolder)
	return err == nil && sameFileSystem(dir, m.project.Root)
}

// flushWithJournal flushes the temporary files names and the journal held
// (see journalGoesWithFiles): one syncfs of their file system, or, if that
// fails, each file and then the journal.
func flushWithJournal(w Writer, names []string, held *heldJournal) error {
	if len(names) > 0 && syncFS(names[0]) == nil {
		return nil
	}
	if err := w.Sync(names); err != nil {
		return err
	}
	if err := held.flush(); err != nil {
		return fmt.Errorf("flush the journal: %w", err)
	}
	return nil
}

// editedMeanwhile names a file of ops whose text the person edited in the
// record rec since full was read, or returns "".
func editedMeanwhile(rec, full ChangeSet, ops []fileOp) string {
	for _, op := range ops {
		if r, f := rec.File(op.rel), full.File(op.rel); r != nil && f != nil && r.Revision != f.Revision {
			return op.rel
		}
	}
	return ""
}

// reportLeftovers records the backups an apply or revert could not remove
// (its files are all in place): in the set's Leftovers and its history,
// for the person and the agent, who can remove them.
func (m *Manager) reportLeftovers(cs ChangeSet, left []string) ChangeSet {
	what := "could not remove the backup files " + strings.Join(left, ", ") + "; the change is complete and they can be deleted"
	updated, err := m.update(cs.ID, func(rec *ChangeSet) error {
		rec.Leftovers = append(rec.Leftovers, left...)
		m.addHistory(rec, ActionLeftovers, ByTrestle, what, left)
		return nil
	})
	if err != nil { // the apply is recorded; say it on the result at least
		cs.Leftovers = append(cs.Leftovers, left...)
		m.addHistory(&cs, ActionLeftovers, ByTrestle, what, left)
		return cs
	}
	return updated
}

// recordApplied marks the chosen hunks of the record rec applied, with
// the hashes of what was written (sums, by path) and the modes the files
// had first. full is the set whole, as it was before.
func (m *Manager) recordApplied(rec *ChangeSet, full ChangeSet, chosen map[string][]int, sums map[string]string, modes map[string]fs.FileMode) {
	for path, ns := range chosen {
		first := len(hunksIn(*full.File(path), StateApplied)) == 0
		f := setHunks(rec, full, path, ns, StateApplied)
		f.AppliedSHA256 = ""
		if f.Action != ActionDelete {
			f.AppliedSHA256 = sums[path]
		}
		if first {
			f.BaseMode = uint32(modes[path])
		}
	}
	settle(rec)
	rec.Decided = m.now().UTC()
	action := ActionApplied
	if rec.State != StateApplied {
		action = ActionPartlyApplied
	}
	what, files := describeSelection(full, chosen)
	m.addHistory(rec, action, ByPerson, action+" "+what, files)
}
