package changeset

import (
	"fmt"

	"trestle/app/errdefs"
	"trestle/app/store"
)

// RejectSelection rejects, with the person's reason, the hunks sel picks
// (a path mapped to nil: every pending hunk of that file) of change set
// id, which must have hunks pending; the agent reads the reason on each
// file. The rest stays as it was. The rejection is an entry of the set's
// history. Safe for concurrent use.
func (m *Manager) RejectSelection(id string, sel Selection, reason string) (ChangeSet, error) {
	if _, err := m.Start(); err != nil {
		return ChangeSet{}, fmt.Errorf("reject in %s: %w", id, err)
	}
	return m.update(id, func(cs *ChangeSet) error {
		if !cs.CanApply() {
			return fmt.Errorf("change set %s is %s, with nothing pending to reject: %w", id, cs.State, errdefs.ErrInvalid)
		}
		chosen, err := choose(*cs, sel)
		if err != nil {
			return fmt.Errorf("reject in %s: %w", id, err)
		}
		for path, ns := range chosen {
			setHunks(cs, *cs, path, ns, FileRejected).Reason = reason
		}
		settle(cs)
		if !cs.CanApply() {
			cs.Decided = m.now().UTC()
		}
		what, files := describeSelection(*cs, chosen)
		m.addHistory(cs, ActionRejected, ByPerson, withReason("rejected "+what, reason), files)
		return nil
	})
}

// EditFile makes text the new content of file path of change set id in
// place of what the agent proposed, before it is applied: the file's hunks
// are those from its base to text, all pending, and what applies is the
// person's text. The set records that the person changed it (the file's
// EditedByPerson, its Proposed content, and an entry of its history), so
// the agent can read the difference (see EditDiff). The text is checked as
// a proposal's is (size, UTF-8, no NUL bytes, a change from the base). A
// deleted file, or one with hunks applied or rejected already, cannot be
// edited. Safe for concurrent use.
func (m *Manager) EditFile(id, path, text string) (ChangeSet, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.Start(); err != nil {
		return ChangeSet{}, fmt.Errorf("edit %s of %s: %w", path, id, err)
	}
	n, err := parseID(id)
	if err != nil {
		return ChangeSet{}, err
	}
	var out ChangeSet
	err = m.store.UpdateRecords(func(tx *store.RecordTx) error {
		full, err := m.fullIn(tx, id, n)
		if err != nil {
			return err
		}
		if err := m.edit(&full, path, text); err != nil {
			return err
		}
		small, bodies, err := split(full)
		if err != nil {
			return err
		}
		// After a crash between the bodies and the record, the next read
		// finds the person's text with hunk states for the agent's, and
		// gives them all pending (see normalizeBodies).
		if err := m.put(tx, n, small, bodies); err != nil {
			return err
		}
		full.Bytes, out = small.Bytes, full
		return nil
	})
	if err != nil {
		return ChangeSet{}, fmt.Errorf("edit %s of %s: %w", path, id, err)
	}
	return out, nil
}

// fullIn reads set n whole inside tx.
func (m *Manager) fullIn(tx *store.RecordTx, id string, n uint64) (ChangeSet, error) {
	data, err := tx.Get(recordsBucket, n)
	if err != nil {
		return ChangeSet{}, err
	}
	if data == nil {
		return ChangeSet{}, fmt.Errorf("no such change set: %w", errdefs.ErrNotFound)
	}
	cs, err := m.decode(id, data)
	if err != nil {
		return ChangeSet{}, err
	}
	bodies, err := m.readBodies(id, n)
	if err != nil {
		return ChangeSet{}, err
	}
	return attach(cs, bodies), nil
}

// edit puts the person's text in place of file path's new content.
func (m *Manager) edit(cs *ChangeSet, path, text string) error {
	if !cs.CanApply() {
		return fmt.Errorf("it is %s, with nothing pending: %w", cs.State, errdefs.ErrInvalid)
	}
	f := cs.File(path)
	switch {
	case f == nil:
		return invalid("%s is not a file of this change set", path)
	case f.Action == ActionDelete:
		return invalid("%s is proposed for deletion: there is no new text to edit; reject it instead", path)
	case len(hunksIn(*f, StatePending, StateConflict)) != len(f.Hunks):
		return invalid("%s is %s: only a file with nothing applied or rejected can be edited", path, f.State)
	}
	action := ActionReplace
	if f.Action == ActionCreate {
		action = ActionCreate
	}
	if _, err := newContent(path, f.Base, Change{Action: action, Content: text}); err != nil {
		return err
	}
	if !f.EditedByPerson {
		f.EditedByPerson, f.Proposed = true, f.New
	}
	f.New = text
	setHunkStats(f)
	f.Detail = ""
	f.Revision++
	settle(cs)
	m.addHistory(cs, ActionEditedByPerson, ByPerson, "edited the proposed text of "+path+" before applying", []string{path})
	return nil
}

// EditDiff is the unified diff from what the agent proposed for f
// (labelled proposed/PATH) to what the person made of it (person/PATH; see
// EditFile), or "" when the person did not change it. f must have its
// bodies (see Manager.Full).
func EditDiff(f FileChange) string {
	if !f.EditedByPerson {
		return ""
	}
	// The same line diff as Hunks and Diff, so the agent reads the hunks
	// the person sees.
	return unified("proposed/"+f.Path, "person/"+f.Path, Hunks(FileChange{Base: f.Proposed, New: f.New}))
}
