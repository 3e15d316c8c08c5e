package review

// A review's hunk decisions: each hunk's bar (Accept, Reject and what was
// decided) and the bookkeeping of accepted, rejected and undecided hunks.

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// hunkSummary says how many hunks the file has and how many are rejected.
func hunkSummary(t *reviewTab, f changeset.FileChange, hunks []changeset.Hunk) string {
	n := 0
	for _, h := range hunks {
		if t.reject[f.Path][h.N] {
			n++
		}
	}
	s := fmt.Sprintf("  · %d hunk%s", len(hunks), plural(len(hunks)))
	if n > 0 {
		s += fmt.Sprintf(", %d rejected", n)
	}
	return s
}

// hunkBar is the line above hunk h of f: where it is, what was decided,
// and the buttons that decide.
func (t *reviewTab) hunkBar(f changeset.FileChange, h changeset.Hunk) fyne.CanvasObject {
	path, n := f.Path, h.N
	label := widget.NewLabelWithStyle(t.hunkBarText(f, h), fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	label.Wrapping = fyne.TextWrapWord
	accept := widget.NewButton("Accept", func() { t.decideHunk(path, n, false) })
	reject := widget.NewButton("Reject", func() { t.decideHunk(path, n, true) })
	switch {
	case !applicable(f) || !canApply(t.cs) || !t.include[path]:
		accept.Disable()
		reject.Disable()
	case t.reject[path][n]:
		reject.Importance = widget.DangerImportance
	case t.accepted(path, n):
		accept.Importance = widget.SuccessImportance
	}
	return barOf(label, accept, reject)
}

// hunkBarText is the text of hunk h's bar: its number, range and state.
func (t *reviewTab) hunkBarText(f changeset.FileChange, h changeset.Hunk) string {
	return fmt.Sprintf("Hunk %d · @@ -%d,%d +%d,%d @@ · %s", h.N, h.OldStart, h.OldLines, h.NewStart, h.NewLines, t.hunkState(f, h.N))
}

// hunkState is what the person sees of hunk n of f: decided in the store,
// else what they chose here.
func (t *reviewTab) hunkState(f changeset.FileChange, n int) string {
	for _, h := range f.Hunks {
		if h.N == n && h.State != changeset.StatePending && h.State != "" {
			if h.Detail != "" {
				return stateText(h.State) + ": " + changeset.MarkControls(h.Detail)
			}
			return stateText(h.State)
		}
	}
	switch {
	case !applicable(f):
		return stateText(f.State)
	case !t.include[f.Path]:
		return "file left out"
	case t.reject[f.Path][n]:
		return "rejected: will not be applied"
	case t.accepted(f.Path, n):
		return "accepted: will be applied"
	}
	return "undecided"
}

// accepted reports whether the person accepted hunk n of path here.
func (t *reviewTab) accepted(path string, n int) bool {
	reject, decided := t.reject[path][n]
	return decided && !reject
}

// acceptUndecided accepts every hunk of cs's ticked files that is still
// pending and that the person has not decided here. Main goroutine only.
func (t *reviewTab) acceptUndecided(cs changeset.ChangeSet) {
	for _, f := range cs.Files {
		if !t.include[f.Path] || !applicable(f) {
			continue
		}
		for _, h := range t.hunksOfFile(f) {
			if _, decided := t.reject[f.Path][h.N]; !decided && undecided(storedHunkState(f, h.N)) {
				if t.reject[f.Path] == nil {
					t.reject[f.Path] = map[int]bool{}
				}
				t.reject[f.Path][h.N] = false
			}
		}
	}
}

// decideHunk records the person's decision on hunk n of path.
func (t *reviewTab) decideHunk(path string, n int, reject bool) {
	if t.reject[path] == nil {
		t.reject[path] = map[int]bool{}
	}
	t.reject[path][n] = reject
	t.showFile(t.file)
	t.setButtons(t.cs)
}
