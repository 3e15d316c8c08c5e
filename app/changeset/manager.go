package changeset

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"trestle/app/errdefs"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/workbench"
)

// idPrefix starts every change set id: "cs-12".
const idPrefix = "cs-"

// Manager keeps the change sets of one project in the store. Several
// Managers, in one process or in several (a window and headless servers),
// may share a store: every state change is one read-modify-write
// transaction, so none is lost. A Manager is safe for concurrent use;
// Apply and Revert run one at a time per Manager.
type Manager struct {
	store   *store.Store
	project *project.Project
	mu      sync.Mutex // serialises Apply and Revert
	now     func() time.Time

	startMu sync.Mutex
	started bool // Start has run to the end once

	mapBodies bool // see MapBodies

	lastMu sync.Mutex
	last   readRecord // the record get decoded last, for update (see readRecord)
}

// NewManager returns the Manager for project p's change sets in store.
func NewManager(store *store.Store, p *project.Project) *Manager {
	return &Manager{store: store, project: p, now: time.Now}
}

// MapBodies makes m read the file bodies of a set by mapping their blob
// (store.MapBlob) rather than copying it: for a process that runs one
// short command with m and ends. Call it before m is used.
func (m *Manager) MapBodies() { m.mapBodies = true }

// Project is the project whose change sets m keeps.
func (m *Manager) Project() *project.Project { return m.project }

// Start does what a Trestle process does once when it opens the project's
// change sets: it moves sets of an older store layout to the current one,
// recovers applies and reverts that a crash interrupted (see Recover), and
// prunes decided sets past the person's retention when no process sharing
// the store did so in the last pruneEvery. Every other method
// calls it first, so a process that forgets still gets it; calling it
// again after it succeeded does nothing. It returns what it recovered, for
// the person to hear.
func (m *Manager) Start() ([]Recovery, error) {
	m.startMu.Lock()
	defer m.startMu.Unlock()
	if m.started {
		return nil, nil
	}
	if err := m.migrate(); err != nil {
		return nil, err
	}
	rec, err := m.Recover()
	if err != nil {
		return rec, err
	}
	if err := m.pruneIfDue(); err != nil {
		return rec, err
	}
	m.started = true
	return rec, nil
}

// Propose validates in (see the package function Propose), stores it as a
// pending change set and returns it with its id. Nothing is stored when it
// is refused: invalid (wrapping errdefs.ErrInvalid), or over a limit on what
// may wait for review (MaxPendingPerProject, MaxPendingBytesPerProject,
// MaxPendingPerClient; wrapping errdefs.ErrRefused).
func (m *Manager) Propose(base ReadFunc, in Proposal) (ChangeSet, error) {
	if _, err := m.Start(); err != nil {
		return ChangeSet{}, fmt.Errorf("propose change set: %w", err)
	}
	full, err := Propose(m.project, base, in)
	if err != nil {
		return ChangeSet{}, err
	}
	if err := m.pruneIfDue(); err != nil {
		return ChangeSet{}, fmt.Errorf("propose change set: %w", err)
	}
	full.Created = m.now().UTC()
	m.addHistory(&full, ActionProposed, orUnknown(in.Client), "proposed this change set", nil)
	small, bodies, err := split(full)
	if err != nil {
		return ChangeSet{}, fmt.Errorf("store change set: %w", err)
	}
	var refused error
	err = m.store.UpdateRecords(func(tx *store.RecordTx) error {
		load, err := m.loadOf(tx, in.Client, in.Session)
		if err != nil {
			return err
		}
		if refused = load.check(in.Client, in.Session, len(bodies)); refused != nil {
			return refused
		}
		n, err := tx.NextID(recordsBucket)
		if err != nil {
			return err
		}
		small.ID = idPrefix + strconv.FormatUint(n, 10)
		// A crash before the commit leaves a blob no record names, which
		// prune removes.
		if err := m.put(tx, n, small, bodies); err != nil {
			return err
		}
		return tx.AddToIndex(indexBucket, m.project.Root, n)
	})
	if refused != nil {
		return ChangeSet{}, fmt.Errorf("propose change set: %w", refused)
	}
	if err != nil {
		return ChangeSet{}, fmt.Errorf("store change set: %w", err)
	}
	full.ID, full.Bytes = small.ID, small.Bytes
	return full, nil
}

// Get returns change set id without its file bodies (Base, New, Content
// and Edits are empty; everything else is there), which is cheap to read
// however large the set: enough for its state, its files' states and
// stats. Full returns it whole. It returns an error wrapping
// errdefs.ErrNotFound (also for another project's id) or errdefs.ErrInvalid (an
// id not like "cs-12").
func (m *Manager) Get(id string) (ChangeSet, error) {
	if _, err := m.Start(); err != nil {
		return ChangeSet{}, fmt.Errorf("change set %s: %w", id, err)
	}
	return m.get(id)
}

// Full returns change set id with every file's base, new content and the
// edits asked for, to show its diffs or apply it. Errors are as Get's.
func (m *Manager) Full(id string) (ChangeSet, error) {
	if _, err := m.Start(); err != nil {
		return ChangeSet{}, fmt.Errorf("change set %s: %w", id, err)
	}
	return m.full(id)
}

// full is Full without Start.
func (m *Manager) full(id string) (ChangeSet, error) {
	cs, err := m.get(id)
	if err != nil {
		return ChangeSet{}, err
	}
	n, _ := parseID(id)
	bodies, err := m.readBodies(id, n)
	if err != nil {
		return ChangeSet{}, err
	}
	return attach(cs, bodies), nil
}

// List returns the project's change sets, newest first, without their file
// bodies (as Get); state, when not "", keeps only those in that state. It
// reads only this project's small records.
func (m *Manager) List(state string) ([]ChangeSet, error) {
	if state != "" && !knownState(state) {
		return nil, fmt.Errorf("list change sets: state %q is not one of %s: %w", state, strings.Join(setStates, ", "), errdefs.ErrInvalid)
	}
	if _, err := m.Start(); err != nil {
		return nil, fmt.Errorf("list change sets: %w", err)
	}
	return m.list(state)
}

// list is List without Start.
func (m *Manager) list(state string) ([]ChangeSet, error) {
	out := []ChangeSet{}
	err := m.store.ViewRecords(func(tx *store.RecordTx) error {
		ids, err := tx.Indexed(indexBucket, m.project.Root)
		if err != nil {
			return err
		}
		for _, n := range slices.Backward(ids) {
			data, err := tx.Get(recordsBucket, n)
			if err != nil || data == nil {
				continue
			}
			var cs ChangeSet
			if err := json.Unmarshal(data, &cs); err != nil {
				return fmt.Errorf("decode %s%d: %w", idPrefix, n, err)
			}
			if cs.Project == m.project.Root && (state == "" || cs.State == state) {
				out = append(out, cs)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list change sets: %w", err)
	}
	return out, nil
}

// Withdraw withdraws change set id for session, the one that proposed it
// (Proposal.Session): another session may read a set but not withdraw
// it, and that refusal wraps errdefs.ErrRefused. Only an undecided set can
// be withdrawn.
func (m *Manager) Withdraw(id, session string) (ChangeSet, error) {
	return m.update(id, func(cs *ChangeSet) error {
		if cs.Session != session {
			return fmt.Errorf("change set %s was proposed by another agent's session (%s); you can read it but only its proposer can withdraw it: %w",
				id, orUnknown(cs.Client), errdefs.ErrRefused)
		}
		if !cs.Undecided() {
			return fmt.Errorf("change set %s is %s; only a pending, stale or conflicting one can be withdrawn: %w", id, cs.State, errdefs.ErrInvalid)
		}
		turnUndecided(cs, FileWithdrawn)
		cs.State, cs.Decided = StateWithdrawn, m.now().UTC()
		settle(cs)
		m.addHistory(cs, ActionWithdrawn, orUnknown(cs.Client), "withdrew this change set", nil)
		return nil
	})
}

// Reject rejects, with the person's reason, everything of change set id
// still pending: the whole set when nothing of it was applied (it is then
// rejected), else the rest of a partly applied one. The agent reads the
// reason. Nothing of it is pending afterwards.
func (m *Manager) Reject(id, reason string) (ChangeSet, error) {
	return m.update(id, func(cs *ChangeSet) error {
		if !cs.CanApply() {
			return fmt.Errorf("change set %s is %s; only a pending, stale, conflicting or partly applied one can be rejected: %w", id, cs.State, errdefs.ErrInvalid)
		}
		turnUndecided(cs, FileRejected)
		cs.Reason, cs.Decided = reason, m.now().UTC()
		settle(cs)
		m.addHistory(cs, ActionRejected, ByPerson, withReason("rejected everything pending", reason), nil)
		return nil
	})
}

// turnUndecided gives every undecided hunk of cs state s.
func turnUndecided(cs *ChangeSet, s string) {
	for _, f := range cs.Files {
		for j, h := range f.Hunks {
			if h.Undecided() {
				f.Hunks[j] = HunkState{N: h.N, State: s}
			}
		}
	}
}

// withReason adds the person's reason to a history sentence.
func withReason(what, reason string) string {
	if reason == "" {
		return what
	}
	return what + ": " + reason
}

// MarkStale marks stale every pending change set of the project touching
// one of paths (project-relative, forward slashes), naming the file, and
// returns their ids (an edited buffer that no longer holds the base).
func (m *Manager) MarkStale(paths []string) ([]string, error) {
	return m.markStaleIf(paths, func(FileChange) bool { return true })
}

// MarkStaleOnDisk is MarkStale for files a watcher saw change on disk: a
// file whose text there is still what its set expects (a save of text
// the person did not change, an edit undone) leaves that set pending.
func (m *Manager) MarkStaleOnDisk(paths []string) ([]string, error) {
	disk := workbench.Reader{Project: m.project}.Func(context.Background())
	r := m.project.NewResolver()
	return m.markStaleIf(paths, func(f FileChange) bool {
		exists, sum := expected(f)
		_, detail, err := m.compare(r, f.Path, exists, sum, disk)
		return err != nil || detail != ""
	})
}

// markStaleIf marks stale the pending sets that touch paths, for the files
// among paths that changed reports changed.
func (m *Manager) markStaleIf(paths []string, changed func(FileChange) bool) ([]string, error) {
	pending, err := m.List(StatePending)
	if err != nil {
		return nil, err
	}
	var marked []string
	for _, cs := range pending {
		var stale []string
		for _, p := range paths {
			if f := cs.File(p); f != nil && changed(*f) {
				stale = append(stale, p)
			}
		}
		if len(stale) == 0 {
			continue
		}
		done := false
		_, err := m.update(cs.ID, func(cs *ChangeSet) error {
			done = markStale(cs, stale)
			return nil
		})
		if err != nil {
			return marked, fmt.Errorf("mark stale: %w", err)
		}
		if done {
			marked = append(marked, cs.ID)
		}
	}
	return marked, nil
}

// markStale marks cs stale if it is still pending and touches paths.
func markStale(cs *ChangeSet, paths []string) bool {
	if cs.State != StatePending {
		return false
	}
	changed := false
	for _, p := range paths {
		if f := cs.File(p); f != nil {
			f.State, f.Detail, changed = StateStale, f.Path+" changed since the proposal", true
		}
	}
	if changed {
		cs.State = StateStale
	}
	return changed
}

var setStates = []string{StatePending, StateApplied, StatePartlyApplied, StateRejected,
	StateWithdrawn, StateStale, StateConflict, StateReverted}

func knownState(s string) bool { return slices.Contains(setStates, s) }
