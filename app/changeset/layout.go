package changeset

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unsafe"
)

// How change sets are kept in the store. Lists read small records only:
// each file's path, action, hashes, state and stats. The file bodies (the
// base, the new content, the edits asked for) are a write-once blob per
// set, read only to show diffs or to apply. An index by project keeps one
// project's list from reading any other's records.
const (
	// recordsBucket holds each set's small record, JSON, keyed by number.
	recordsBucket = "changeset-records"
	// indexBucket files each set's number under its project root.
	indexBucket = "changeset-projects"
	// bodiesBucket names the blobs of file bodies: []fileBody in the
	// binary encoding of encodeBodies (sets stored before it: JSON).
	bodiesBucket = "changeset-bodies"
	// legacyBucket is the layout before: each set whole, bodies included,
	// in one value. Its records are moved to the layout above at open.
	legacyBucket = "changesets"
	// maintenanceBucket holds when the store was last pruned (pruneIfDue).
	maintenanceBucket = "changeset-maintenance"
)

// fileBody is what a set keeps of one file apart from its record.
type fileBody struct {
	Path    string `json:"path"`
	Edits   []Edit `json:"edits,omitempty"`
	Content string `json:"content,omitempty"`
	Base    string `json:"base"`
	New     string `json:"new"`
	// Edited says the person changed New before applying; Proposed is
	// then the agent's new content.
	Edited   bool   `json:"edited,omitempty"`
	Proposed string `json:"proposed,omitempty"`
}

// split returns cs without its file bodies (a summary, as lists hold it)
// and the bodies, encoded.
func split(cs ChangeSet) (ChangeSet, []byte, error) {
	bodies := make([]fileBody, len(cs.Files))
	cs.Files = slices.Clone(cs.Files)
	for i := range cs.Files {
		f := &cs.Files[i]
		bodies[i] = bodyOf(*f)
		f.Edits, f.Content, f.Base, f.New, f.Proposed = nil, "", "", "", ""
	}
	data := encodeBodies(bodies)
	cs.Bytes = len(data)
	return cs, data, nil
}

// attach puts the bodies of full (a set as Full returns it, or the
// encoded blob's) back into the summary cs, matching files by path.
func attach(cs ChangeSet, bodies []fileBody) ChangeSet {
	byPath := make(map[string]fileBody, len(bodies))
	for _, b := range bodies {
		byPath[b.Path] = b
	}
	cs.Files = slices.Clone(cs.Files)
	for i := range cs.Files {
		f := &cs.Files[i]
		if b, ok := byPath[f.Path]; ok {
			f.Edits, f.Content, f.Base, f.New = b.Edits, b.Content, b.Base, b.New
			if f.Action == ActionCreate || f.Action == ActionReplace {
				f.Content = b.New
				if b.Edited {
					f.Content = b.Proposed
				}
			}
			if b.Edited {
				f.EditedByPerson, f.Proposed = true, b.Proposed
			}
			if f.legacy || b.Edited {
				normalizeBodies(f) // see there: the only cases where the states may not match
			}
		}
	}
	return cs
}

// bodiesOf returns the bodies a whole set holds.
func bodiesOf(full ChangeSet) []fileBody {
	out := make([]fileBody, len(full.Files))
	for i, f := range full.Files {
		out[i] = bodyOf(f)
	}
	return out
}

// bodyOf is what is kept of f apart from its record.
func bodyOf(f FileChange) fileBody {
	b := fileBody{Path: f.Path, Edits: f.Edits, Content: f.Content, Base: f.Base, New: f.New,
		Edited: f.EditedByPerson, Proposed: f.Proposed}
	if f.Action == ActionCreate || f.Action == ActionReplace {
		b.Content = "" // kept once, as New (or Proposed, once edited)
	}
	return b
}

// readBodies reads and decodes the bodies of set n.
func (m *Manager) readBodies(id string, n uint64) ([]fileBody, error) {
	read := m.store.ReadBlob
	if m.mapBodies {
		read = m.store.MapBlob
	}
	data, err := read(bodiesBucket, n)
	if err != nil {
		return nil, fmt.Errorf("change set %s: its file contents are missing from the store: %w", id, err)
	}
	bodies, err := decodeBodies(data)
	if err != nil {
		return nil, fmt.Errorf("change set %s: decode its file contents: %w", id, err)
	}
	return bodies, nil
}

// bodiesMagic starts a bodies blob in the binary encoding. Blobs written
// before it are JSON (they start with '['), and are still read as such.
const bodiesMagic = "trestle-bodies-1\n"

// encodeBodies encodes bodies for the store: bodiesMagic, their count,
// then each body's strings as a length and the bytes, with no escaping,
// so reading a set back for an apply costs a copy, not a JSON decode of
// every file's text (measured: 17 ms of a 200-file apply's 143 ms CPU).
func encodeBodies(bodies []fileBody) []byte {
	n := len(bodiesMagic) + binary.MaxVarintLen64
	for _, b := range bodies {
		n += 6*binary.MaxVarintLen64 + 1 + len(b.Path) + len(b.Content) + len(b.Base) + len(b.New) + len(b.Proposed)
		for _, e := range b.Edits {
			n += 2*binary.MaxVarintLen64 + len(e.OldText) + len(e.NewText)
		}
	}
	out := make([]byte, 0, n)
	out = append(out, bodiesMagic...)
	out = binary.AppendUvarint(out, uint64(len(bodies)))
	str := func(s string) {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	for _, b := range bodies {
		str(b.Path)
		str(b.Content)
		str(b.Base)
		str(b.New)
		str(b.Proposed)
		edited := byte(0)
		if b.Edited {
			edited = 1
		}
		out = append(out, edited)
		out = binary.AppendUvarint(out, uint64(len(b.Edits)))
		for _, e := range b.Edits {
			str(e.OldText)
			str(e.NewText)
		}
	}
	return out
}

// errBodies is a bodies blob that ends early or holds more than it says.
var errBodies = errors.New("the stored file contents are cut short or damaged")

// decodeBodies reads what encodeBodies wrote, or the JSON of a set stored
// before it. The strings of the binary encoding share data's memory (a
// 200-file set is about 1.6 MB of text, which a copy doubled), so data
// must never be written after: readBodies gives it a fresh read.
func decodeBodies(data []byte) ([]fileBody, error) {
	if !bytes.HasPrefix(data, []byte(bodiesMagic)) {
		var bodies []fileBody
		if err := json.Unmarshal(data, &bodies); err != nil {
			return nil, err
		}
		return bodies, nil
	}
	data = data[len(bodiesMagic):]
	bad := false
	num := func() uint64 {
		v, k := binary.Uvarint(data)
		if k <= 0 {
			bad = true
			return 0
		}
		data = data[k:]
		return v
	}
	str := func() string {
		n := num()
		if bad || n > uint64(len(data)) {
			bad = true
			return ""
		}
		s := unsafe.String(unsafe.SliceData(data), int(n)) // see decodeBodies: data is never written again
		data = data[n:]
		return s
	}
	count := num()
	if bad || count > uint64(len(data)) {
		return nil, errBodies
	}
	bodies := make([]fileBody, 0, min(count, MaxFiles)) // a damaged count allocates no more
	for range count {
		b := fileBody{Path: str(), Content: str(), Base: str(), New: str(), Proposed: str()}
		if bad || len(data) == 0 {
			return nil, errBodies
		}
		b.Edited, data = data[0] == 1, data[1:]
		edits := num()
		if bad || edits > uint64(len(data)) {
			return nil, errBodies
		}
		for range edits {
			b.Edits = append(b.Edits, Edit{OldText: str(), NewText: str()})
		}
		if bad {
			return nil, errBodies
		}
		bodies = append(bodies, b)
	}
	if len(data) != 0 {
		return nil, errBodies
	}
	return bodies, nil
}
