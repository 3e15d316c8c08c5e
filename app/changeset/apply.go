package changeset

import (
	"fmt"
	"io/fs"
	"strings"
	"time"

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

// Apply writes the included files of undecided change set id (include
// lists paths; empty means every file). First it checks every included
// file's current content, as current reads it, against its base: on any
// mismatch it writes nothing, marks those files and the set conflict and
// returns an error wrapping ErrConflict and errdefs.ErrInvalid that names
// them. Then it writes each file through a temporary file and a rename,
// keeping the mode; if any write fails every file is put back and the
// error says which and why. It records the applied hashes and the state
// applied (or partly applied) and returns the updated set. Safe for
// concurrent use; applies and reverts of one Manager run one at a time.
func (m *Manager) Apply(id string, include []string, current ReadFunc, w Writer) (ChangeSet, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	// An apply or revert another process was killed in since this one
	// started is undone first, so its files are whole again.
	if _, err := m.Recover(); err != nil {
		return ChangeSet{}, fmt.Errorf("apply %s: %w", id, err)
	}
	cs, err := m.Full(id)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("apply: %w", err)
	}
	if !cs.Undecided() {
		return ChangeSet{}, fmt.Errorf("apply %s: it is %s, not pending: %w", id, cs.State, errdefs.ErrInvalid)
	}
	sel, err := selectFiles(cs, include)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("apply %s: %w", id, err)
	}
	paths, checked, err := m.checkBases(cs, sel, current)
	if err != nil {
		return checked, err
	}
	ops, err := m.applyOps(cs, sel, paths)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("apply %s: %w", id, err)
	}
	return m.commit("apply "+id, cs, w, ops, func(rec *ChangeSet, modes map[string]fs.FileMode) {
		recordApplied(rec, cs, sel, modes, m.now)
	})
}

// selectFiles returns the paths to apply, every file when include is empty.
func selectFiles(cs ChangeSet, include []string) (map[string]bool, error) {
	sel := make(map[string]bool, len(cs.Files))
	for _, f := range cs.Files {
		sel[f.Path] = len(include) == 0
	}
	for _, p := range include {
		if _, ok := sel[p]; !ok {
			return nil, fmt.Errorf("%s is not a file of this change set: %w", p, errdefs.ErrInvalid)
		}
		sel[p] = true
	}
	return sel, nil
}

// checkBases compares each selected file with its base and returns their
// confined paths, for the write; on a mismatch it records the conflict and
// returns the error.
func (m *Manager) checkBases(cs ChangeSet, sel map[string]bool, current ReadFunc) (map[string]project.Path, ChangeSet, error) {
	var found []conflict
	paths := make(map[string]project.Path, len(sel))
	for _, f := range cs.Files {
		if !sel[f.Path] {
			continue
		}
		cp, detail, err := m.compare(f.Path, f.BaseExists, f.BaseSHA256, current)
		if err != nil {
			return nil, ChangeSet{}, fmt.Errorf("apply %s: %w", cs.ID, err)
		}
		if detail != "" {
			found = append(found, conflict{f.Path, detail})
		}
		paths[f.Path] = cp
	}
	if len(found) == 0 {
		return paths, cs, nil
	}
	updated, err := m.update(cs.ID, func(cs *ChangeSet) error { markConflict(cs, found); return nil })
	if err != nil {
		return nil, ChangeSet{}, fmt.Errorf("apply %s: record conflict: %w (%w)", cs.ID, err, conflictError("apply", found))
	}
	return nil, attach(updated, bodiesOf(cs)), fmt.Errorf("apply %s: %w", cs.ID, conflictError("apply", found))
}

// compare confines path, once for the whole apply or revert, and returns
// it with "" when the file is as expected (existing with hash sum, or
// missing), else with what differs. The path must still resolve to itself.
func (m *Manager) compare(path string, exists bool, sum string, current ReadFunc) (project.Path, string, error) {
	cp, err := m.project.Resolve(path)
	if err != nil || cp.Rel() != path {
		return project.Path{}, path + " now leads elsewhere (a symlink or a folder changed)", nil
	}
	text, now, err := current(cp)
	if err != nil {
		return project.Path{}, "", fmt.Errorf("read %s: %w", path, err)
	}
	switch {
	case exists && !now:
		return cp, path + " was deleted", nil
	case !exists && now:
		return cp, path + " now exists", nil
	case exists && hashText(text) != sum:
		return cp, path + " was changed", nil
	}
	return cp, "", nil
}

// markConflict records found on cs, if the person has not decided since.
func markConflict(cs *ChangeSet, found []conflict) {
	if !cs.Undecided() {
		return
	}
	cs.State = StateConflict
	for _, c := range found {
		if f := cs.File(c.path); f != nil {
			f.State, f.Detail = StateConflict, c.detail+" since the proposal"
		}
	}
}

// applyOps turns the selected files into file operations, at the paths
// checkBases confined.
func (m *Manager) applyOps(cs ChangeSet, sel map[string]bool, paths map[string]project.Path) ([]fileOp, error) {
	var ops []fileOp
	headIn := headFinder(m.project.Root)
	for _, f := range cs.Files {
		if !sel[f.Path] {
			continue
		}
		if why := gitMetadata(f.Path, headIn); why != "" {
			return nil, invalid("%s: %s", f.Path, why)
		}
		cp, ok := paths[f.Path]
		if !ok || cp.IsZero() {
			return nil, fmt.Errorf("%s was not checked before the write: %w", f.Path, errdefs.ErrInvalid)
		}
		ops = append(ops, fileOp{rel: f.Path, abs: cp.Abs(), remove: f.Action == ActionDelete, data: f.New, mode: NewFileMode})
	}
	return ops, nil
}

// commit writes ops under an intent journal, records the result with
// record in one store transaction (with the journal's id, so a recovery
// knows it was recorded), and only then drops the backups and the
// journal; if recording fails the files are put back. full is the set
// whole; the result has its bodies.
func (m *Manager) commit(what string, full ChangeSet, w Writer, ops []fileOp, record func(*ChangeSet, map[string]fs.FileMode)) (ChangeSet, error) {
	if w == nil {
		w = OSWriter{Root: m.project.Root}
	}
	verb, _, _ := strings.Cut(what, " ")
	j := newJournal(verb, full.ID, m.project.Root, ops)
	held, err := m.writeJournal(j)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("%s: nothing was written: %w", what, err)
	}
	defer held.done()
	txn, err := writeFiles(w, j.ID, ops)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("%s: %w", what, err)
	}
	cs, err := m.update(full.ID, func(cs *ChangeSet) error {
		record(cs, txn.modes())
		cs.Txn = j.ID
		return nil
	})
	if err != nil {
		restored, problems := txn.rollback()
		return ChangeSet{}, fmt.Errorf("%s: record the result: %w; put back %s; not put back: %s",
			what, err, strings.Join(restored, ", "), strings.Join(problems, "; "))
	}
	txn.finish()
	return attach(cs, bodiesOf(full)), nil
}

// recordApplied marks the selected files of the record cs applied with
// their hashes (of full's new contents) and modes, the others skipped.
func recordApplied(cs *ChangeSet, full ChangeSet, sel map[string]bool, modes map[string]fs.FileMode, now func() time.Time) {
	all := true
	for i := range cs.Files {
		f := &cs.Files[i]
		f.Detail = ""
		if !sel[f.Path] {
			f.State, all = FileSkipped, false
			continue
		}
		f.State, f.AppliedSHA256 = StateApplied, ""
		if f.Action != ActionDelete {
			f.AppliedSHA256 = hashText(full.File(f.Path).New)
		}
		f.BaseMode = uint32(modes[f.Path])
	}
	cs.State, cs.Decided = StateApplied, now().UTC()
	if !all {
		cs.State = StatePartlyApplied
	}
}
