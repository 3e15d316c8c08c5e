package changeset

import (
	"encoding/json"
	"fmt"
	"slices"
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
	// bodiesBucket names the blobs of file bodies, JSON []fileBody.
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
	data, err := json.Marshal(bodies)
	if err != nil {
		return ChangeSet{}, nil, err
	}
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
	data, err := m.store.ReadBlob(bodiesBucket, n)
	if err != nil {
		return nil, fmt.Errorf("change set %s: its file contents are missing from the store: %w", id, err)
	}
	var bodies []fileBody
	if err := json.Unmarshal(data, &bodies); err != nil {
		return nil, fmt.Errorf("change set %s: decode its file contents: %w", id, err)
	}
	return bodies, nil
}
