package acp

import (
	"encoding/json"
	"fmt"

	"trestle/app/store"
)

// agentsBucket is the store's record bucket of the person's own agents;
// record agentsRecord holds the list.
const (
	agentsBucket = "agent-commands"
	agentsRecord = 1
	// MaxAgents bounds the person's own agents.
	MaxAgents = 50
)

// AgentEntry is an agent the person added: a name and its command line.
type AgentEntry struct {
	Name    string `json:"name"`
	Command string `json:"command"`
}

// SaveAgents stores the person's own agents, replacing the list. Safe for
// concurrent use.
func SaveAgents(st *store.Store, agents []AgentEntry) error {
	if len(agents) > MaxAgents {
		return fmt.Errorf("save agents: %d agents, more than the %d Trestle keeps", len(agents), MaxAgents)
	}
	data, err := json.Marshal(agents)
	if err != nil {
		return fmt.Errorf("save agents: %w", err)
	}
	if err := st.PutRecord(agentsBucket, agentsRecord, data); err != nil {
		return fmt.Errorf("save agents: %w", err)
	}
	return nil
}

// SavedAgents are the person's own agents, in the order they were given.
// Safe for concurrent use.
func SavedAgents(st *store.Store) ([]AgentEntry, error) {
	var agents []AgentEntry
	err := st.ViewRecords(func(tx *store.RecordTx) error {
		raw, err := tx.Get(agentsBucket, agentsRecord)
		if err != nil || raw == nil {
			return err
		}
		return json.Unmarshal(raw, &agents)
	})
	if err != nil {
		return nil, fmt.Errorf("read the agents: %w", err)
	}
	return agents, nil
}
