package changeset

import (
	"encoding/json"
	"fmt"

	"trestle/app/store"
)

// migrate moves every set of the legacy layout (bodies inside the record)
// to the current one, one set per transaction so no transaction holds
// the store long, and drops the legacy bucket once it is empty. A record
// it cannot decode stays where it is, unread. Several processes may
// migrate at once: each set moves once.
func (m *Manager) migrate() error {
	var ids []uint64
	var seq uint64
	err := m.store.ViewRecords(func(tx *store.RecordTx) error {
		var err error
		if ids, err = tx.IDs(legacyBucket); err == nil {
			seq, err = tx.Sequence(legacyBucket)
		}
		return err
	})
	if err != nil || (len(ids) == 0 && seq == 0) {
		return err
	}
	// Ids keep counting from the legacy sequence: "cs-12" stays unique.
	if err := m.store.UpdateRecords(func(tx *store.RecordTx) error { return tx.RaiseSequence(recordsBucket, seq) }); err != nil {
		return fmt.Errorf("move change sets to the new layout: %w", err)
	}
	undecodable := 0
	for _, n := range ids {
		err := m.store.UpdateRecords(func(tx *store.RecordTx) error {
			moved, err := m.migrateOne(tx, n)
			if err == nil && !moved {
				undecodable++
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("move change set %s%d to the new layout: %w", idPrefix, n, err)
		}
	}
	if undecodable > 0 {
		return nil
	}
	return m.store.UpdateRecords(func(tx *store.RecordTx) error {
		if left, err := tx.IDs(legacyBucket); err != nil || len(left) > 0 {
			return err
		}
		return tx.DropBucket(legacyBucket)
	})
}

// migrateOne moves legacy set n; false when it cannot be decoded.
func (m *Manager) migrateOne(tx *store.RecordTx, n uint64) (bool, error) {
	data, err := tx.Get(legacyBucket, n)
	if err != nil || data == nil {
		return true, err // moved by another process meanwhile
	}
	var cs ChangeSet
	if json.Unmarshal(data, &cs) != nil {
		return false, nil
	}
	small, bodies, err := split(cs)
	if err != nil {
		return false, err
	}
	record, err := json.Marshal(small)
	if err != nil {
		return false, err
	}
	if err := m.store.WriteBlob(bodiesBucket, n, bodies); err != nil {
		return false, err
	}
	if err := tx.Put(recordsBucket, n, record); err != nil {
		return false, err
	}
	if err := tx.AddToIndex(indexBucket, cs.Project, n); err != nil {
		return false, err
	}
	return true, tx.Delete(legacyBucket, n)
}
