package changeset

import (
	"fmt"
	"io/fs"

	"trestle/app/errdefs"
	"trestle/app/project"
)

// Revert puts back the base content of every applied file of change set id
// (recreating deleted files with their old mode, removing created ones),
// provided each still has exactly the content the apply wrote, as current
// reads it. Otherwise it writes nothing and returns an error wrapping
// ErrConflict and errdefs.ErrInvalid that lists the files changed since. Writes
// and rollback work as in Apply. Safe for concurrent use; applies and
// reverts of one Manager run one at a time.
func (m *Manager) Revert(id string, current ReadFunc, w Writer) (ChangeSet, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	// An apply or revert another process was killed in since this one
	// started is undone first, so its files are whole again.
	if _, err := m.Recover(); err != nil {
		return ChangeSet{}, fmt.Errorf("revert %s: %w", id, err)
	}
	cs, err := m.Full(id)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("revert: %w", err)
	}
	if cs.State != StateApplied && cs.State != StatePartlyApplied {
		return ChangeSet{}, fmt.Errorf("revert %s: it is %s, not applied: %w", id, cs.State, errdefs.ErrInvalid)
	}
	var found []conflict
	var ops []fileOp
	for _, f := range cs.Files {
		if f.State != StateApplied {
			continue
		}
		cp, detail, err := m.compare(f.Path, f.Action != ActionDelete, f.AppliedSHA256, current)
		if err != nil {
			return ChangeSet{}, fmt.Errorf("revert %s: %w", id, err)
		}
		if detail != "" {
			found = append(found, conflict{f.Path, detail + " since the apply"})
			continue
		}
		if ops, err = appendRevertOp(ops, f, cp); err != nil {
			return ChangeSet{}, fmt.Errorf("revert %s: %w", id, err)
		}
	}
	if len(found) > 0 {
		return cs, fmt.Errorf("revert %s: %w", id, conflictError("revert", found))
	}
	return m.commit("revert "+id, cs, w, ops, func(cs *ChangeSet, _ map[string]fs.FileMode) { recordReverted(cs, m) })
}

// appendRevertOp adds the operation that restores f's base at cp, the path
// compare confined.
func appendRevertOp(ops []fileOp, f FileChange, cp project.Path) ([]fileOp, error) {
	if cp.IsZero() {
		return nil, fmt.Errorf("%s was not checked before the write: %w", f.Path, errdefs.ErrInvalid)
	}
	abs := cp.Abs()
	mode := fs.FileMode(f.BaseMode)
	if mode == 0 {
		mode = NewFileMode
	}
	return append(ops, fileOp{rel: f.Path, abs: abs, remove: !f.BaseExists, data: f.Base, mode: mode}), nil
}

// recordReverted marks the applied files and the set reverted.
func recordReverted(cs *ChangeSet, m *Manager) {
	for i := range cs.Files {
		if f := &cs.Files[i]; f.State == StateApplied {
			f.State = FileReverted
		}
	}
	cs.State, cs.Decided = StateReverted, m.now().UTC()
}
