package changeset

import (
	"fmt"
	"io/fs"

	"trestle/app/errdefs"
	"trestle/app/project"
)

// Revert puts back the base content of every file change set id applied
// (wholly or in part: recreating deleted files with their old mode,
// removing created ones), provided each still has exactly the content the
// applies wrote, as current reads it. Otherwise it writes nothing and
// returns an error wrapping ErrConflict and errdefs.ErrInvalid that lists the
// files changed since. Writes and rollback work as in ApplySelection. The
// revert is an entry of the set's history, and UndoRevert undoes it. Safe
// for concurrent use; applies and reverts of one Manager run one at a
// time.
func (m *Manager) Revert(id string, current ReadFunc, w Writer) (ChangeSet, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cs, err := m.begin("revert", id)
	if err != nil {
		return ChangeSet{}, err
	}
	if cs.State != StateApplied && cs.State != StatePartlyApplied {
		return ChangeSet{}, fmt.Errorf("revert %s: it is %s, not applied: %w", id, cs.State, errdefs.ErrInvalid)
	}
	var found []conflict
	var ops []fileOp
	chosen := map[string][]int{}
	r := m.project.NewResolver()
	for _, f := range cs.Files {
		ns := hunksIn(f, StateApplied)
		if len(ns) == 0 {
			continue
		}
		chosen[f.Path] = ns
		cp, detail, err := m.compare(r, f.Path, f.Action != ActionDelete, f.AppliedSHA256, current)
		if err != nil {
			return ChangeSet{}, fmt.Errorf("revert %s: %w", id, err)
		}
		if detail != "" {
			found = append(found, conflict{f.Path, detail + " since the apply"})
			continue
		}
		mode := fs.FileMode(f.BaseMode)
		if mode == 0 {
			mode = NewFileMode
		}
		if ops, err = appendOp(ops, cp, !f.BaseExists, f.Base, mode); err != nil {
			return ChangeSet{}, fmt.Errorf("revert %s: %w", id, err)
		}
	}
	if len(found) > 0 {
		return cs, fmt.Errorf("revert %s: %w", id, conflictError("revert", found))
	}
	return m.commit("revert", cs, w, ops, func(rec *ChangeSet, _ map[string]fs.FileMode) {
		m.recordTurned(rec, cs, chosen, FileReverted, ActionReverted)
	})
}

// UndoRevert applies again what the revert of change set id put back:
// every hunk it reverted, provided each file still holds its base, as
// current reads it (else, as Revert, it writes nothing and names the
// files). The set is applied or partly applied again, as before the
// revert, and the undo is an entry of its history. Safe for concurrent
// use.
func (m *Manager) UndoRevert(id string, current ReadFunc, w Writer) (ChangeSet, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	cs, err := m.begin("undo revert", id)
	if err != nil {
		return ChangeSet{}, err
	}
	if cs.State != StateReverted {
		return ChangeSet{}, fmt.Errorf("undo the revert of %s: it is %s, not reverted: %w", id, cs.State, errdefs.ErrInvalid)
	}
	var found []conflict
	var ops []fileOp
	chosen := map[string][]int{}
	texts := map[string]string{}
	r := m.project.NewResolver()
	for _, f := range cs.Files {
		ns := hunksIn(f, FileReverted)
		if len(ns) == 0 {
			continue
		}
		chosen[f.Path] = ns
		cp, detail, err := m.compare(r, f.Path, f.BaseExists, f.BaseSHA256, current)
		if err != nil {
			return ChangeSet{}, fmt.Errorf("undo the revert of %s: %w", id, err)
		}
		if detail != "" {
			found = append(found, conflict{f.Path, detail + " since the revert"})
			continue
		}
		texts[f.Path] = textWith(f, ns)
		if ops, err = appendOp(ops, cp, f.Action == ActionDelete, texts[f.Path], NewFileMode); err != nil {
			return ChangeSet{}, fmt.Errorf("undo the revert of %s: %w", id, err)
		}
	}
	if len(found) > 0 {
		return cs, fmt.Errorf("undo the revert of %s: %w", id, conflictError("undo of the revert", found))
	}
	return m.commit("undo-revert", cs, w, ops, func(rec *ChangeSet, _ map[string]fs.FileMode) {
		for path := range chosen {
			if f := rec.File(path); f != nil && f.Action != ActionDelete {
				f.AppliedSHA256 = hashText(texts[path])
			}
		}
		m.recordTurned(rec, cs, chosen, StateApplied, ActionRevertUndone)
	})
}

// appendOp adds the operation that puts text (or nothing, with remove)
// at cp, the path compare confined.
func appendOp(ops []fileOp, cp project.Path, remove bool, text string, mode fs.FileMode) ([]fileOp, error) {
	if cp.IsZero() {
		return nil, fmt.Errorf("%s was not checked before the write: %w", cp.Rel(), errdefs.ErrInvalid)
	}
	return append(ops, fileOp{rel: cp.Rel(), abs: cp.Abs(), remove: remove, data: text, mode: mode}), nil
}

// recordTurned gives the chosen hunks of the record rec state s and adds
// action to its history. full is the set whole.
func (m *Manager) recordTurned(rec *ChangeSet, full ChangeSet, chosen map[string][]int, s, action string) {
	for path, ns := range chosen {
		setHunks(rec, full, path, ns, s)
	}
	settle(rec)
	rec.Decided = m.now().UTC()
	what, files := describeSelection(full, chosen)
	m.addHistory(rec, action, ByPerson, action+": "+what, files)
}
