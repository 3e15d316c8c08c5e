package changeset

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"trestle/app/projconf"
)

// ErrConflict means a file changed since the change set was proposed (or
// applied, for a revert), so nothing was written. It is returned wrapped
// together with errdefs.ErrInvalid, naming the files.
var ErrConflict = errors.New("files changed since the proposal")

// Limits on one proposal.
const (
	// MaxFiles bounds the files of one change set: a person can review that
	// many diffs, and more is a refactoring tool's job.
	MaxFiles = 200
	// MaxTotalBytes bounds what a change set keeps: every file's base plus
	// new content. The whole set is one store value.
	MaxTotalBytes = 16 << 20
	// MaxFileBytes bounds one file's base or new content, as trestle_read does.
	MaxFileBytes = 8 << 20
	// MaxTitleBytes and MaxDescriptionBytes bound the texts a person reads.
	MaxTitleBytes       = 200
	MaxDescriptionBytes = 64 << 10
)

// Actions of a file change.
const (
	ActionEdit    = "edit"    // exact old_text -> new_text replacements
	ActionCreate  = "create"  // a new file; refused if it exists
	ActionReplace = "replace" // whole new content of an existing file
	ActionDelete  = "delete"  // remove an existing file
)

// States of a change set. Pending, stale and conflict are undecided: the
// person may still apply or reject them. A partly applied set may still
// have hunks pending (see ChangeSet.CanApply).
const (
	StatePending       = "pending"
	StateApplied       = "applied"
	StatePartlyApplied = "partly_applied" // some hunks applied, others pending or rejected
	StateRejected      = "rejected"
	StateWithdrawn     = "withdrawn"
	StateStale         = "stale"    // a file changed since the proposal
	StateConflict      = "conflict" // an apply was refused: a file changed
	StateReverted      = "reverted"
)

// States of one file of a change set, and of one hunk (StatePending,
// StateApplied, StatePartlyApplied, StateConflict and StateStale are
// shared with the set; a hunk is never stale or partly applied).
const (
	FileSkipped   = "skipped"   // left out of a partial apply (stores before per-hunk review)
	FileReverted  = "reverted"  // applied, then restored to its base
	FileRejected  = "rejected"  // not applied: the person rejected it
	FileWithdrawn = "withdrawn" // not applied: the agent withdrew the set
)

// Edit is one exact replacement in a file's base: OldText must occur
// exactly once.
type Edit struct {
	OldText string `json:"old_text"`
	NewText string `json:"new_text"`
}

// FileChange is one file of a change set: what was asked, the base it was
// computed from and the resulting new content.
type FileChange struct {
	Path    string `json:"path"` // project-relative, forward slashes, symlinks resolved
	Action  string `json:"action"`
	Edits   []Edit `json:"edits,omitempty"`   // ActionEdit
	Content string `json:"content,omitempty"` // ActionCreate, ActionReplace

	BaseExists bool   `json:"base_exists"`
	BaseSHA256 string `json:"base_sha256,omitempty"` // hex; "" when the file did not exist
	Base       string `json:"base"`
	New        string `json:"new"` // "" for ActionDelete

	State         string `json:"state"`
	Detail        string `json:"detail,omitempty"`         // why stale or in conflict
	BaseMode      uint32 `json:"base_mode,omitempty"`      // permission bits found on apply, for a revert
	AppliedSHA256 string `json:"applied_sha256,omitempty"` // hex of what the applies so far wrote; "" for a delete
	Added         int    `json:"added"`                    // diff lines added
	Removed       int    `json:"removed"`                  // diff lines removed

	// Hunks is the person's decision on each hunk of the file (see Hunks),
	// by number; a file without hunks (an empty new file) has one unit, 1.
	Hunks []HunkState `json:"hunks,omitempty"`
	// Reason is the person's, when they rejected this file or some of its hunks.
	Reason string `json:"reason,omitempty"`
	// EditedByPerson says the person changed the proposed new text before
	// applying: New is theirs and Proposed is the agent's.
	EditedByPerson bool   `json:"edited_by_person,omitempty"`
	Proposed       string `json:"proposed,omitempty"` // a body: set by Full only
	// Revision counts the person's edits of the file's text (EditFile), so
	// an apply in another process that read the set before an edit does not
	// record itself over it.
	Revision int `json:"revision,omitempty"`

	legacy bool // read from a record without hunk states (see normalizeRecord)
}

// HunkState is what became of one hunk of a file: StatePending,
// StateApplied, FileRejected, StateConflict (it did not apply to the
// file as it was: not forced), FileReverted or FileWithdrawn. Detail says
// why, for a conflict.
type HunkState struct {
	N      int    `json:"n"`
	State  string `json:"state"`
	Detail string `json:"detail,omitempty"`
}

// ChangeSet is an agent's proposal and the person's decision on it.
type ChangeSet struct {
	ID          string         `json:"id"`      // "cs-12"
	Project     string         `json:"project"` // project root
	Title       string         `json:"title"`
	Description string         `json:"description,omitempty"` // markdown
	Client      string         `json:"client,omitempty"`      // the proposing MCP client
	Session     string         `json:"session,omitempty"`     // who proposed it (Proposal.Session): only they may withdraw it
	Created     time.Time      `json:"created"`
	State       string         `json:"state"`
	Reason      string         `json:"reason,omitempty"` // the person's, on reject
	Decided     time.Time      `json:"decided,omitzero"`
	Files       []FileChange   `json:"files"`
	Bytes       int            `json:"bytes,omitempty"`   // the stored file bodies, for the limits on what waits
	History     []HistoryEntry `json:"history,omitempty"` // what happened to the set, oldest first
	Txn         string         `json:"txn,omitempty"`     // the last apply or revert recorded, by its journal id
	// Leftovers are backup files (project-relative) an apply or revert
	// could not remove once it was complete: harmless, for the person to
	// delete.
	Leftovers []string `json:"leftovers,omitempty"`
}

// Undecided reports whether nothing of cs is decided yet: the person may
// still apply or reject all of it. See also CanApply.
func (cs ChangeSet) Undecided() bool {
	return cs.State == StatePending || cs.State == StateStale || cs.State == StateConflict
}

// CanApply reports whether some hunk of cs may still be applied (or
// rejected): it is undecided, or partly applied with hunks pending.
func (cs ChangeSet) CanApply() bool {
	if cs.Undecided() {
		return true
	}
	if cs.State != StatePartlyApplied {
		return false
	}
	for _, f := range cs.Files {
		if f.CanApply() {
			return true
		}
	}
	return false
}

// File returns the change to path, or nil.
func (cs *ChangeSet) File(path string) *FileChange {
	for i := range cs.Files {
		if cs.Files[i].Path == path {
			return &cs.Files[i]
		}
	}
	return nil
}

// ChangesWhatRuns reports whether f changes what Trestle runs for the
// person: the project configuration (.trestle.json), whose tasks and
// selection environments (CC, GOFLAGS, ...) become commands at the next
// run, build or evaluation. A review flags such a file.
func (f FileChange) ChangesWhatRuns() bool { return f.Path == projconf.FileName }

// RunsWhat returns the paths of cs that change what runs (see
// FileChange.ChangesWhatRuns).
func (cs ChangeSet) RunsWhat() []string {
	var out []string
	for _, f := range cs.Files {
		if f.ChangesWhatRuns() {
			out = append(out, f.Path)
		}
	}
	return out
}

// ChangesWhatRunsNote is the warning a review shows above a change set
// that changes what runs.
const ChangesWhatRunsNote = "changes what runs: this change set edits the project configuration (.trestle.json); its tasks and environment run as commands at the next build, test, run or evaluation"

// Stats returns the diff lines added and removed over every file.
func (cs ChangeSet) Stats() (added, removed int) {
	for _, f := range cs.Files {
		added += f.Added
		removed += f.Removed
	}
	return added, removed
}

// hashText is the hex sha256 of text, as project.FileText.SHA256. It
// hashes the string's own bytes (sha256 only reads them): []byte(text)
// copied each file's text into fresh memory, and an apply hashes every
// file three times (measured: 3-4% of a 200-file apply's CPU, most of it
// page faults); a copy through a buffer on the stack still cost a memmove.
func hashText(text string) string {
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(text), len(text))) // read only: no copy of the text
	return hex.EncodeToString(sum[:])
}

// Age is how long ago a change set was made, as a person reads it: "just
// now", "3 min ago", "2 h ago" or "4 days ago".
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%d days ago", int(d/(24*time.Hour)))
}
