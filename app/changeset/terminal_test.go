package changeset

import (
	"errors"
	"testing"

	"trestle/app/errdefs"
)

// TestProposeRefusesForgingText: text that would forge what a terminal or
// the review shows is refused in titles and paths: escapes and other
// control characters in a title, bidi controls in a path.
func TestProposeRefusesForgingText(t *testing.T) {
	ok := []Change{{Path: "main.go", Action: ActionReplace, Content: "package main // changed\n"}}
	tests := []struct {
		name  string
		title string
		path  string
	}{
		{"escape in the title", "fix typo\x1b[2K\rcs-9  applied", "main.go"},
		{"backspace in the title", "fix\b\b\bpwn", "main.go"},
		{"C1 CSI in the title", "fix \u009b2K", "main.go"},
		{"right-to-left override in a path", "t", "evil\u202eog.txt"},
		{"isolate in a path", "t", "a\u2066b.go"},
		{"right-to-left mark in a path", "t", "a\u200fb.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t, map[string]string{"main.go": "package main\n"})
			m := newManager(t, p)
			changes := ok
			if tt.path != "main.go" {
				changes = []Change{{Path: tt.path, Action: ActionCreate, Content: "x\n"}}
			}
			if _, err := m.Propose(diskReader(p), Proposal{Title: tt.title, Changes: changes}); !errors.Is(err, errdefs.ErrInvalid) {
				t.Fatalf("not refused: %v", err)
			}
		})
	}
	p := newProject(t, map[string]string{"main.go": "package main\n"})
	if _, err := newManager(t, p).Propose(diskReader(p), Proposal{Title: "two\tparts\nsecond line", Changes: ok}); err != nil {
		t.Fatalf("tab and newline in a title refused: %v", err)
	}
}
