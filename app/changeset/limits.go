package changeset

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"trestle/app/errdefs"
	"trestle/app/store"
)

// Limits on what agents may leave waiting for the person, so a flood of
// proposals can neither fill the disk nor make every window that lists
// them slow. Past a limit a proposal is refused with a message saying
// what to do; decided sets do not count.
const (
	// MaxPendingPerProject bounds the undecided sets of one project: more
	// than a person reviews.
	MaxPendingPerProject = 50
	// MaxPendingBytesPerProject bounds the file bodies they hold: four
	// sets at the largest size a set may have.
	MaxPendingBytesPerProject = 64 << 20
	// MaxPendingPerClient bounds the undecided sets one client has in one
	// project, so one agent cannot take every place from the others. A
	// client is its session (Proposal.Session), not the name it gives
	// itself; a proposer without a session is counted by name.
	MaxPendingPerClient = 20
	// MaxPendingBytesPerClient bounds the file bodies of one client's
	// undecided sets in one project: half the project's.
	MaxPendingBytesPerClient = MaxPendingBytesPerProject / 2
)

// pendingLoad is what the undecided sets of a project hold.
type pendingLoad struct {
	sets, bytes             int
	clientSets, clientBytes int
}

// loadOf sums the undecided sets of the project in tx, and those of the
// proposer: session, or client by name when session is "".
func (m *Manager) loadOf(tx *store.RecordTx, client, session string) (pendingLoad, error) {
	var load pendingLoad
	ids, err := tx.Indexed(indexBucket, m.project.Root)
	if err != nil {
		return load, err
	}
	for _, n := range ids {
		data, err := tx.Get(recordsBucket, n)
		if err != nil || data == nil {
			continue
		}
		var cs ChangeSet
		if json.Unmarshal(data, &cs) != nil || !cs.Undecided() {
			continue
		}
		load.sets++
		load.bytes += cs.Bytes
		if session != "" && cs.Session == session || session == "" && cs.Session == "" && cs.Client == client {
			load.clientSets++
			load.clientBytes += cs.Bytes
		}
	}
	return load, nil
}

// check refuses a set of size bytes from client (in session, when not
// "") that would take the project past a limit. The error wraps
// errdefs.ErrRefused.
func (l pendingLoad) check(client, session string, size int) error {
	const todo = "the person decides (or you withdraw with trestle_change_set_withdraw) the waiting ones first"
	if session != "" {
		client = "this session of " + orUnknown(client)
	}
	switch {
	case l.sets >= MaxPendingPerProject:
		return fmt.Errorf("refused: the project already has %d change sets waiting for review, the limit; %s: %w", l.sets, todo, errdefs.ErrRefused)
	case l.clientSets >= MaxPendingPerClient:
		return fmt.Errorf("refused: %s already has %d change sets waiting for review in this project, the limit per client; %s: %w", orUnknown(client), l.clientSets, todo, errdefs.ErrRefused)
	case l.clientBytes+size > MaxPendingBytesPerClient:
		return fmt.Errorf("refused: the change sets %s has waiting for review would hold %d MiB of file contents, over the %d MiB limit per client; %s: %w",
			orUnknown(client), (l.clientBytes+size)>>20, MaxPendingBytesPerClient>>20, todo, errdefs.ErrRefused)
	case l.bytes+size > MaxPendingBytesPerProject:
		return fmt.Errorf("refused: the change sets waiting for review would hold %d MiB of file contents, over the %d MiB limit per project; %s: %w",
			(l.bytes+size)>>20, MaxPendingBytesPerProject>>20, todo, errdefs.ErrRefused)
	}
	return nil
}

func orUnknown(client string) string {
	if client == "" {
		return "an unnamed client"
	}
	return client
}

// pruneEvery is how often pruning runs at most, across every process
// that shares the store. Pruning decodes every record of every project;
// run by every CLI call and every proposal, it made an apply's cost grow
// with the store, not with the set. Retention is counted in days, so an
// hour's delay frees nothing anyone misses.
const pruneEvery = time.Hour

// lastPruneKey is the record of maintenanceBucket that holds when the
// store was last pruned (time.Time's text).
const lastPruneKey = 1

// pruneIfDue prunes (see prune) when the store was last pruned more than
// pruneEvery ago, by any process, and notes when.
func (m *Manager) pruneIfDue() error {
	now := m.now()
	var last time.Time
	err := m.store.ViewRecords(func(tx *store.RecordTx) error {
		data, err := tx.Get(maintenanceBucket, lastPruneKey)
		if err == nil && data != nil && last.UnmarshalText(data) != nil {
			last = time.Time{} // unreadable: prune
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("prune decided change sets: %w", err)
	}
	if !last.IsZero() && !now.Before(last) && now.Sub(last) < pruneEvery {
		return nil
	}
	if _, err := m.prune(); err != nil {
		return err
	}
	stamp, err := now.UTC().MarshalText()
	if err != nil {
		return err
	}
	return m.store.UpdateRecords(func(tx *store.RecordTx) error { return tx.Put(maintenanceBucket, lastPruneKey, stamp) })
}

// prune removes decided sets older than the person's retention, of every
// project, with their bodies, and bodies no record names (left by a crash
// between writing them and their record). It returns how many sets it
// removed.
func (m *Manager) prune() (int, error) {
	set, err := m.store.Settings()
	if err != nil {
		return 0, err
	}
	cutoff := m.now().Add(-set.ChangeSetRetention())
	removed := 0
	err = m.store.UpdateRecords(func(tx *store.RecordTx) error {
		removed = 0
		ids, err := tx.IDs(recordsBucket)
		if err != nil {
			return err
		}
		kept := make(map[uint64]bool, len(ids))
		for _, n := range ids {
			gone, err := pruneOne(tx, n, cutoff)
			if err != nil {
				return err
			}
			if gone {
				removed++
				if err := m.store.RemoveBlob(bodiesBucket, n); err != nil {
					return err
				}
			} else {
				kept[n] = true
			}
		}
		orphans, err := m.dropOrphanBodies(kept)
		if err == nil && removed == 0 && orphans == 0 {
			return errNothingPruned // roll back: no commit, no write, no store event
		}
		return err
	})
	if errors.Is(err, errNothingPruned) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("prune decided change sets: %w", err)
	}
	return removed, nil
}

// pruneOne removes set n if it was decided before cutoff.
func pruneOne(tx *store.RecordTx, n uint64, cutoff time.Time) (bool, error) {
	data, err := tx.Get(recordsBucket, n)
	if err != nil || data == nil {
		return false, err
	}
	var cs ChangeSet
	if err := json.Unmarshal(data, &cs); err != nil {
		return false, nil // kept: nothing here can read it, nor should drop it
	}
	if cs.CanApply() || cs.Decided.IsZero() || !cs.Decided.Before(cutoff) {
		return false, nil
	}
	if err := tx.Delete(recordsBucket, n); err != nil {
		return false, err
	}
	return true, tx.RemoveFromIndex(indexBucket, cs.Project, n)
}

// errNothingPruned ends a prune transaction that changed nothing.
var errNothingPruned = errors.New("nothing to prune")

// dropOrphanBodies removes the bodies of sets not in kept and returns how
// many. It runs inside a write transaction, so no proposal is between its
// blob and its record.
func (m *Manager) dropOrphanBodies(kept map[uint64]bool) (int, error) {
	blobs, err := m.store.BlobIDs(bodiesBucket)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range blobs {
		if !kept[id] {
			if err := m.store.RemoveBlob(bodiesBucket, id); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
