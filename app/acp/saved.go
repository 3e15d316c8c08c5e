package acp

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"trestle/app/store"
)

// savedBucket is the store's record bucket of hosted sessions.
const savedBucket = "agent-sessions"

// Bounds of the saved sessions: what the store keeps of a session is its
// transcript's end, and a project keeps its latest sessions only.
const (
	maxSavedTranscript = 256 << 10
	maxSavedSessions   = 50
)

// Saved is a hosted session as the store keeps it, to list it and resume
// it where the agent can (session/load).
type Saved struct {
	ID        uint64    `json:"-"`
	Project   string    `json:"project"`
	Command   string    `json:"command"`    // the agent's command line
	Agent     string    `json:"agent"`      // its name, made safe to show
	SessionID string    `json:"session_id"` // the agent's session id
	CanLoad   bool      `json:"can_load"`   // the agent offered session/load
	Title     string    `json:"title"`      // the first prompt's start
	Started   time.Time `json:"started"`
	Updated   time.Time `json:"updated"`
	// Transcript is the end of what the pane showed.
	Transcript string `json:"transcript"`
}

// SaveSession stores s (a new record when s.ID is 0, which it then sets)
// and drops the project's oldest sessions past maxSavedSessions. Safe for
// concurrent use.
func SaveSession(st *store.Store, s *Saved) error {
	if len(s.Transcript) > maxSavedTranscript {
		s.Transcript = s.Transcript[len(s.Transcript)-maxSavedTranscript:]
	}
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("save agent session: %w", err)
	}
	return st.UpdateRecords(func(tx *store.RecordTx) error {
		if s.ID == 0 {
			if s.ID, err = tx.NextID(savedBucket); err != nil {
				return fmt.Errorf("save agent session: %w", err)
			}
		}
		if err := tx.Put(savedBucket, s.ID, data); err != nil {
			return fmt.Errorf("save agent session %d: %w", s.ID, err)
		}
		ids, err := tx.IDs(savedBucket)
		if err != nil {
			return err
		}
		var mine []uint64
		for _, id := range ids {
			var o Saved
			if raw, err := tx.Get(savedBucket, id); err == nil && json.Unmarshal(raw, &o) == nil && o.Project == s.Project {
				mine = append(mine, id)
			}
		}
		slices.Sort(mine)
		for len(mine) > maxSavedSessions {
			if err := tx.Delete(savedBucket, mine[0]); err != nil {
				return err
			}
			mine = mine[1:]
		}
		return nil
	})
}

// SavedSessions are project's stored sessions, the latest first. Safe for
// concurrent use.
func SavedSessions(st *store.Store, project string) ([]Saved, error) {
	var out []Saved
	err := st.ViewRecords(func(tx *store.RecordTx) error {
		ids, err := tx.IDs(savedBucket)
		if err != nil {
			return err
		}
		for _, id := range ids {
			raw, err := tx.Get(savedBucket, id)
			if err != nil {
				return err
			}
			var s Saved
			if json.Unmarshal(raw, &s) == nil && s.Project == project {
				s.ID = id
				out = append(out, s)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list agent sessions of %s: %w", project, err)
	}
	slices.SortFunc(out, func(a, b Saved) int { return b.Updated.Compare(a.Updated) })
	return out, nil
}
