package changeset

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hunkCase is a base text and regions of it to change, each far enough
// from the next (more than twice the diff context) to be a hunk of its
// own, with lines no other line equals: so which text a set of accepted
// hunks gives is known without a diff.
type hunkCase struct {
	base    []string // lines, each with its newline
	regions []region
}

type region struct {
	at, removed int      // base lines [at, at+removed) go
	added       []string // and these come in their place
}

// newHunkCase makes a random case with 1..5 regions.
func newHunkCase(rng *rand.Rand, tag string) hunkCase {
	var c hunkCase
	line := 0
	next := func(kind string) string {
		line++
		return fmt.Sprintf("%s %s %d %x\n", kind, tag, line, rng.Uint32())
	}
	at := rng.IntN(4) // the first region may start at the top
	for range 1 + rng.IntN(5) {
		for len(c.base) < at {
			c.base = append(c.base, next("old"))
		}
		r := region{at: at, removed: rng.IntN(4)}
		for range rng.IntN(4) {
			r.added = append(r.added, next("new"))
		}
		if r.removed == 0 && len(r.added) == 0 {
			r.removed = 1
		}
		for range r.removed {
			c.base = append(c.base, next("old"))
		}
		c.regions = append(c.regions, r)
		at = len(c.base) + 2*DiffContextLines + 1 + rng.IntN(5)
	}
	for range rng.IntN(5) { // maybe context after the last one
		c.base = append(c.base, next("old"))
	}
	return c
}

// text is the base with the regions accept takes changed.
func (c hunkCase) text(accept func(i int) bool) string {
	var b strings.Builder
	at := 0
	for i, r := range c.regions {
		if !accept(i) {
			continue
		}
		b.WriteString(strings.Join(c.base[at:r.at], ""))
		b.WriteString(strings.Join(r.added, ""))
		at = r.at + r.removed
	}
	b.WriteString(strings.Join(c.base[at:], ""))
	return b.String()
}

// TestAcceptedHunksGiveExactlyTheirText is the property of per-hunk
// review against the real store and disk: for random proposals (1..3
// files, each with 1..5 hunks) and random accept/reject masks over the
// hunks, rejecting the rejected hunks and applying the rest leaves each
// file with exactly the text of its accepted hunks; and a partial apply
// followed by an apply of the rest gives what one apply of everything
// gives.
func TestAcceptedHunksGiveExactlyTheirText(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 15))
	rounds := 60
	if testing.Short() {
		rounds = 10
	}
	outcomes := map[string]int{}
	for round := range rounds {
		nfiles := 1 + rng.IntN(3)
		cases, files := make([]hunkCase, nfiles), map[string]string{}
		for i := range cases {
			cases[i] = newHunkCase(rng, fmt.Sprint(round, "/", i))
			files[fmt.Sprintf("f%d.txt", i)] = cases[i].text(func(int) bool { return false })
		}
		p := newProject(t, files)
		m := newManager(t, p)
		in := Proposal{Title: fmt.Sprint("round ", round)}
		for i, c := range cases {
			in.Changes = append(in.Changes, Change{Path: fmt.Sprintf("f%d.txt", i), Action: ActionReplace, Content: c.text(func(int) bool { return true })})
		}
		cs, err := m.Propose(diskReader(p), in)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			if got := len(Hunks(cs.Files[i])); got != len(c.regions) || len(cs.Files[i].Hunks) != got {
				t.Fatalf("round %d f%d: %d hunks (%d states), want %d", round, i, got, len(cs.Files[i].Hunks), len(c.regions))
			}
		}
		if rng.IntN(2) == 0 {
			outcomes[rejectThenApply(t, m, cs, cases, rng)]++
		} else {
			outcomes[applyInTwoSteps(t, m, cs, cases, rng)]++
		}
	}
	t.Logf("outcomes %v", outcomes)
}

// rejectThenApply rejects a random mask of hunks, applies everything
// else, and checks each file holds the text of its accepted hunks.
func rejectThenApply(t *testing.T, m *Manager, cs ChangeSet, cases []hunkCase, rng *rand.Rand) string {
	t.Helper()
	accepted := make([][]bool, len(cases))
	reject := Selection{}
	for i, c := range cases {
		accepted[i] = make([]bool, len(c.regions))
		for j := range c.regions {
			if accepted[i][j] = rng.IntN(2) == 0; !accepted[i][j] {
				path := fmt.Sprintf("f%d.txt", i)
				reject[path] = append(reject[path], j+1)
			}
		}
	}
	if len(reject) > 0 {
		if _, err := m.RejectSelection(cs.ID, reject, "not these"); err != nil {
			t.Fatal(err)
		}
	}
	got, err := m.ApplySelection(cs.ID, nil, diskReader(m.Project()), nil)
	someAccepted := slices.ContainsFunc(accepted, func(a []bool) bool { return slices.Contains(a, true) })
	if !someAccepted {
		if err == nil {
			t.Fatalf("%s: applied with every hunk rejected", cs.ID)
		}
		if got, _ := m.Get(cs.ID); got.State != StateRejected || got.CanApply() {
			t.Fatalf("%s: every hunk rejected, set %s", cs.ID, got.State)
		}
		return "all rejected"
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		want := c.text(func(j int) bool { return accepted[i][j] })
		readIs(t, m, fmt.Sprintf("f%d.txt", i), want)
		for j, h := range got.Files[i].Hunks {
			if wantState := map[bool]string{true: StateApplied, false: FileRejected}[accepted[i][j]]; h.State != wantState {
				t.Fatalf("%s f%d hunk %d: %s, want %s", cs.ID, i, j+1, h.State, wantState)
			}
		}
	}
	if got.CanApply() {
		t.Fatalf("%s: still pending after applying everything not rejected", cs.ID)
	}
	return "rejected some, applied the rest: " + got.State
}

// applyInTwoSteps applies a random mask of hunks, checks the text, then
// applies the rest and checks the files are the proposal's new texts.
func applyInTwoSteps(t *testing.T, m *Manager, cs ChangeSet, cases []hunkCase, rng *rand.Rand) string {
	t.Helper()
	first := Selection{}
	mask := make([][]bool, len(cases))
	for i, c := range cases {
		mask[i] = make([]bool, len(c.regions))
		for j := range c.regions {
			if mask[i][j] = rng.IntN(2) == 0; mask[i][j] {
				path := fmt.Sprintf("f%d.txt", i)
				first[path] = append(first[path], j+1)
			}
		}
	}
	if len(first) == 0 {
		first["f0.txt"], mask[0][0] = []int{1}, true
	}
	got, err := m.ApplySelection(cs.ID, first, diskReader(m.Project()), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		readIs(t, m, fmt.Sprintf("f%d.txt", i), c.text(func(j int) bool { return mask[i][j] }))
	}
	outcome := "in one step"
	if got.CanApply() {
		outcome = "in two steps"
		if got.State != StatePartlyApplied {
			t.Fatalf("%s after part: %s", cs.ID, got.State)
		}
		if got, err = m.ApplySelection(cs.ID, nil, diskReader(m.Project()), nil); err != nil {
			t.Fatalf("%s: apply the rest: %v", cs.ID, err)
		}
	}
	if got.State != StateApplied {
		t.Fatalf("%s after everything: %s", cs.ID, got.State)
	}
	for i, c := range cases {
		readIs(t, m, fmt.Sprintf("f%d.txt", i), c.text(func(int) bool { return true }))
	}
	return outcome
}

// readIs checks the project file rel holds want.
func readIs(t *testing.T, m *Manager, rel, want string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(m.Project().Root, rel))
	if err != nil || string(data) != want {
		t.Fatalf("%s: %v\n got %q\nwant %q", rel, err, data, want)
	}
}

// TestComposeIsTheAcceptedRegions is the same property without the disk,
// over many more cases: composing any subset of the hunks gives the text
// of those regions, and composing what a partial result lacks on top of
// it (in the order hunks were accepted) changes nothing about the end.
func TestComposeIsTheAcceptedRegions(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2026))
	for i := range 3000 {
		c := newHunkCase(rng, fmt.Sprint(i))
		base, all := c.text(func(int) bool { return false }), c.text(func(int) bool { return true })
		plans := planHunks(base, all)
		if len(plans) != len(c.regions) {
			t.Fatalf("case %d: %d hunks for %d regions", i, len(plans), len(c.regions))
		}
		mask := rng.Uint32()
		got := compose(base, plans, func(n int) bool { return mask&(1<<(n-1)) != 0 })
		if want := c.text(func(j int) bool { return mask&(1<<j) != 0 }); got != want {
			t.Fatalf("case %d mask %b:\n got %q\nwant %q", i, mask, got, want)
		}
		// The rest, as a later apply sees it: hunks from the partial text
		// to the new one are exactly the regions not yet accepted.
		if rest := planHunks(got, all); len(rest) != len(c.regions)-popcount(mask, len(c.regions)) {
			t.Fatalf("case %d: %d hunks left after mask %b of %d", i, len(rest), mask, len(c.regions))
		}
	}
}

func popcount(mask uint32, n int) int {
	c := 0
	for j := range n {
		if mask&(1<<j) != 0 {
			c++
		}
	}
	return c
}
