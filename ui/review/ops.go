package review

import (
	"trestle/app/changeset"
)

// applySelection applies sel (for each path its accepted hunks, nil for
// every pending hunk of the file) of change set id, then records the
// hunks the person rejected (rej) as rejected, for the agent to read.
// Off the main goroutine.
func (v *View) applySelection(id string, sel, rej changeset.Selection) (changeset.ChangeSet, error) {
	var res changeset.ChangeSet
	var err error
	if len(sel) > 0 {
		if res, err = v.m.ApplySelection(id, sel, v.reader(), nil); err != nil {
			return res, err
		}
	}
	if len(rej) > 0 {
		applied := res
		if res, err = v.m.RejectSelection(id, rej, ""); err != nil && applied.ID != "" {
			return applied, err
		}
	}
	return res, err
}

// undecided reports whether a hunk (or a file without hunk records) in
// state s may still be applied or rejected.
func undecided(s string) bool {
	switch s {
	case "", changeset.StatePending, changeset.StateConflict, changeset.StateStale, changeset.FileSkipped:
		return true
	}
	return false
}

// storedHunkState is what the store records for hunk n of f, "" when it
// records nothing.
func storedHunkState(f changeset.FileChange, n int) string {
	for _, h := range f.Hunks {
		if h.N == n {
			return h.State
		}
	}
	return ""
}

// applicable reports whether some hunk of f may still be applied.
func applicable(f changeset.FileChange) bool {
	if len(f.Hunks) == 0 {
		return undecided(f.State)
	}
	for _, h := range f.Hunks {
		if undecided(h.State) {
			return true
		}
	}
	return false
}

// canApply reports whether cs has hunks the person may still apply.
func canApply(cs changeset.ChangeSet) bool { return cs.ID != "" && cs.CanApply() }
