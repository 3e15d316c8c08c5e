package changeset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"trestle/app/errdefs"
	"trestle/app/store"
)

// readRecord is a record as stored and as decoded. An apply reads its
// set's record, then updates it: when the stored bytes are still these,
// update takes a copy of this decode instead of decoding the JSON of 200
// files again (3-4% of a 200-file apply's CPU).
type readRecord struct {
	id  string
	raw []byte
	cs  ChangeSet // cloneRecord'd: nobody else holds its slices
}

// get is Get without Start.
func (m *Manager) get(id string) (ChangeSet, error) {
	n, err := parseID(id)
	if err != nil {
		return ChangeSet{}, err
	}
	var data []byte
	err = m.store.ViewRecords(func(tx *store.RecordTx) error {
		data, err = tx.Get(recordsBucket, n)
		return err
	})
	if err != nil {
		return ChangeSet{}, fmt.Errorf("change set %s: %w", id, err)
	}
	if data == nil {
		return ChangeSet{}, fmt.Errorf("change set %s: no such change set: %w", id, errdefs.ErrNotFound)
	}
	cs, err := m.decode(id, data)
	if err == nil {
		m.lastMu.Lock()
		m.last = readRecord{id: id, raw: data, cs: cloneRecord(cs)}
		m.lastMu.Unlock()
	}
	return cs, err
}

// decodeAgain is decode of id's stored bytes data, from the copy get kept
// when they are the bytes it decoded (the cache is then emptied: an update
// uses it once).
func (m *Manager) decodeAgain(id string, data []byte) (ChangeSet, error) {
	m.lastMu.Lock()
	last := m.last
	m.last = readRecord{}
	m.lastMu.Unlock()
	if last.id == id && bytes.Equal(last.raw, data) {
		return cloneRecord(last.cs), nil
	}
	return m.decode(id, data)
}

// cloneRecord is cs with every slice of its own, so changing one copy
// (states, history) leaves the other as it was.
func cloneRecord(cs ChangeSet) ChangeSet {
	cs.Files = slices.Clone(cs.Files)
	for i := range cs.Files {
		f := &cs.Files[i]
		f.Edits, f.Hunks = slices.Clone(f.Edits), slices.Clone(f.Hunks)
	}
	cs.History = slices.Clone(cs.History)
	for i := range cs.History {
		cs.History[i].Files = slices.Clone(cs.History[i].Files)
	}
	cs.Leftovers = slices.Clone(cs.Leftovers)
	return cs
}

// update applies fn to change set id's record (no bodies) in one store
// transaction and returns the result. An error from fn leaves the record
// unchanged.
func (m *Manager) update(id string, fn func(*ChangeSet) error) (ChangeSet, error) {
	n, err := parseID(id)
	if err != nil {
		return ChangeSet{}, err
	}
	var out ChangeSet
	var refused error // from decode or fn: already names the change set
	err = m.store.UpdateRecord(recordsBucket, n, func(old []byte) ([]byte, error) {
		cs, err := m.decodeAgain(id, old)
		if err == nil {
			err = fn(&cs)
		}
		if err != nil {
			refused = err
			return nil, err
		}
		out = cs
		return json.Marshal(cs)
	})
	if refused != nil {
		return ChangeSet{}, refused
	}
	if errors.Is(err, errdefs.ErrNotFound) {
		return ChangeSet{}, fmt.Errorf("change set %s: no such change set: %w", id, errdefs.ErrNotFound)
	}
	if err != nil {
		return ChangeSet{}, fmt.Errorf("change set %s: %w", id, err)
	}
	return out, nil
}

// put stores set n inside tx: its bodies as a blob first, then its
// record (small, without bodies), so a record never names a blob that is
// not there.
func (m *Manager) put(tx *store.RecordTx, n uint64, small ChangeSet, bodies []byte) error {
	record, err := json.Marshal(small)
	if err != nil {
		return err
	}
	if err := m.store.WriteBlob(bodiesBucket, n, bodies); err != nil {
		return err
	}
	return tx.Put(recordsBucket, n, record)
}

// decode reads a stored change set, hiding other projects' ones.
func (m *Manager) decode(id string, data []byte) (ChangeSet, error) {
	var cs ChangeSet
	if err := json.Unmarshal(data, &cs); err != nil {
		return ChangeSet{}, fmt.Errorf("decode change set %s: %w", id, err)
	}
	if cs.Project != m.project.Root {
		return ChangeSet{}, fmt.Errorf("change set %s belongs to another project: %w", id, errdefs.ErrNotFound)
	}
	normalizeRecord(&cs)
	return cs, nil
}

// parseID turns "cs-12" into 12.
func parseID(id string) (uint64, error) {
	n, err := strconv.ParseUint(strings.TrimPrefix(id, idPrefix), 10, 64)
	if err != nil || !strings.HasPrefix(id, idPrefix) || n == 0 {
		return 0, fmt.Errorf("change set id %q is not like %s12: %w", id, idPrefix, errdefs.ErrInvalid)
	}
	return n, nil
}
