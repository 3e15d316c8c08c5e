package changeset

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"trestle/app/errdefs"
)

// Actions of history entries.
const (
	ActionProposed       = "proposed"
	ActionApplied        = "applied"
	ActionPartlyApplied  = "partially applied"
	ActionRejected       = "rejected"
	ActionWithdrawn      = "withdrawn"
	ActionReverted       = "reverted"
	ActionRevertUndone   = "revert undone"
	ActionEditedByPerson = "edited by person"
	ActionConflict       = "conflict"
	ActionRecovered      = "recovered"
	ActionLeftovers      = "backups left"
	// ActionHeld is a decision the person held back without deciding: an
	// apply, revert or undo they cancelled because a file had unsaved
	// edits. Nothing changed but the history (see Manager.Note).
	ActionHeld = "held"
)

// Who made a history entry, besides a client's name.
const (
	ByPerson  = "person"
	ByTrestle = "trestle" // a recovery at start
)

// HistoryEntry is one thing that happened to a change set, for the person
// and the agent: who did what to which files, and when.
type HistoryEntry struct {
	At     time.Time `json:"time"`
	Action string    `json:"action,omitempty"` // one of the Action constants
	Files  []string  `json:"files,omitempty"`
	Who    string    `json:"who,omitempty"` // ByPerson, ByTrestle or the client's name
	// What says it in a sentence: "applied hunks 1, 3 of main.go".
	What string `json:"what"`
}

// addHistory appends an entry to cs's history.
func (m *Manager) addHistory(cs *ChangeSet, action, who, what string, files []string) {
	cs.History = append(cs.History, HistoryEntry{At: m.now().UTC(), Action: action, Files: files, Who: who, What: what})
}

// Note appends to change set id's history an entry that changes nothing
// else, so the agent reads why nothing happened: "apply held: main.go has
// unsaved edits". A note the same as the last entry (the person cancelling
// again) only moves that entry's time, so repeats do not grow the history.
// It returns the set's record. Safe for concurrent use.
func (m *Manager) Note(id, action, who, what string, files []string) (ChangeSet, error) {
	if action == "" || strings.TrimSpace(what) == "" {
		return ChangeSet{}, fmt.Errorf("note on change set %s: the note needs an action and a sentence: %w", id, errdefs.ErrInvalid)
	}
	return m.update(id, func(cs *ChangeSet) error {
		if n := len(cs.History); n > 0 {
			last := &cs.History[n-1]
			if last.Action == action && last.Who == who && last.What == what && slices.Equal(last.Files, files) {
				last.At = m.now().UTC()
				return nil
			}
		}
		m.addHistory(cs, action, who, what, slices.Clone(files))
		return nil
	})
}

// describeSelection says which hunks of which files, for a history entry:
// "main.go (hunks 1, 3), util.go".
func describeSelection(cs ChangeSet, chosen map[string][]int) (string, []string) {
	var parts, files []string
	for _, f := range cs.Files {
		ns, ok := chosen[f.Path]
		if !ok {
			continue
		}
		files = append(files, f.Path)
		if len(ns) == len(f.Hunks) || len(f.Hunks) <= 1 {
			parts = append(parts, f.Path)
			continue
		}
		parts = append(parts, f.Path+" (hunk"+plural(len(ns))+" "+joinInts(ns)+")")
	}
	return strings.Join(parts, ", "), files
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
