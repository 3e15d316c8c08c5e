package changeset

import (
	"testing"
)

// TestEachFileIsResolvedOncePerCall holds propose, apply and revert to one
// resolution of each file's path: the check reads through the confined
// path the write then uses, instead of resolving its name again "to be
// safe" (before: propose 2, apply 3, revert 3 per file, with the disk
// reader; the window's reader added one more).
func TestEachFileIsResolvedOncePerCall(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "package a\n", "b/b.go": "package b\n"})
	m := newManager(t, p)
	read := diskReader(p)
	calls := []struct {
		name string
		run  func(id string) (string, error)
	}{
		{"propose", func(string) (string, error) {
			cs, err := m.Propose(read, Proposal{Title: "t", Changes: []Change{
				{Path: "a.go", Action: ActionReplace, Content: "package a // 2\n"},
				{Path: "b/b.go", Action: ActionReplace, Content: "package b // 2\n"},
			}})
			return cs.ID, err
		}},
		{"apply", func(id string) (string, error) { _, err := m.Apply(id, nil, read, nil); return id, err }},
		{"revert", func(id string) (string, error) { _, err := m.Revert(id, read, nil); return id, err }},
		{"undo of the revert", func(id string) (string, error) { _, err := m.UndoRevert(id, read, nil); return id, err }},
	}
	id := ""
	for _, c := range calls {
		before := p.Resolutions()
		var err error
		if id, err = c.run(id); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n := p.Resolutions() - before; n != 2 {
			t.Errorf("%s resolved %d paths for 2 files, want 2 (one each)", c.name, n)
		}
	}
}
