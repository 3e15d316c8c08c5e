package changeset

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/app/project"
)

// gen makes random, always valid proposals over a project whose every line
// is unique, so any line is a valid old_text.
type gen struct {
	rng      *rand.Rand
	lines    int            // lines made so far, for uniqueness
	outcomes map[string]int // how often each case was met
}

func (g *gen) text(n int) string {
	var b strings.Builder
	for range n {
		g.lines++
		fmt.Fprintf(&b, "line %d %x\n", g.lines, g.rng.Uint32())
	}
	return b.String()
}

// proposal picks 1..4 changes over the current files and new paths.
func (g *gen) proposal(round int, files map[string]tfile) Proposal {
	paths := slices.Sorted(maps.Keys(files))
	g.rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	in := Proposal{Title: fmt.Sprint("round ", round)}
	for i := range 1 + g.rng.IntN(4) {
		if i >= len(paths) || g.rng.IntN(4) == 0 {
			dir := []string{"", "new/", fmt.Sprintf("r%d/deep/", round)}[g.rng.IntN(3)]
			in.Changes = append(in.Changes, Change{Path: fmt.Sprintf("%sc%d_%d.txt", dir, round, i), Action: ActionCreate, Content: g.text(g.rng.IntN(4))})
			continue
		}
		in.Changes = append(in.Changes, g.change(paths[i], files[paths[i]].text))
	}
	return in
}

func (g *gen) change(path, base string) Change {
	lines := strings.SplitAfter(base, "\n")
	switch k := g.rng.IntN(4); {
	case k == 0:
		return Change{Path: path, Action: ActionDelete}
	case k == 1 || base == "":
		return Change{Path: path, Action: ActionReplace, Content: g.text(1 + g.rng.IntN(5))}
	default:
		old := lines[g.rng.IntN(len(lines))]
		if old == "" {
			old = lines[0]
		}
		return Change{Path: path, Action: ActionEdit, Edits: []Edit{{OldText: old, NewText: g.text(g.rng.IntN(3))}}}
	}
}

// interfere makes the person change some of the files proposed, and
// returns the paths they touched.
func (g *gen) interfere(t *testing.T, p *project.Project, cs ChangeSet) map[string]bool {
	touched := map[string]bool{}
	for _, f := range cs.Files {
		if g.rng.IntN(5) != 0 {
			continue
		}
		abs := filepath.Join(p.Root, filepath.FromSlash(f.Path))
		var err error
		if f.BaseExists && g.rng.IntN(3) == 0 {
			err = os.Remove(abs)
		} else {
			os.MkdirAll(filepath.Dir(abs), 0o755)
			err = os.WriteFile(abs, []byte(f.Base+g.text(1)), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		touched[f.Path] = true
	}
	return touched
}

// files keeps only the files of a snapshot.
func files(snap map[string]tfile) map[string]tfile {
	maps.DeleteFunc(snap, func(k string, _ tfile) bool { return strings.HasSuffix(k, "/") })
	return snap
}

// TestApplyProperty proposes random change sets, lets "the person" edit
// some of their files meanwhile, then applies (all or some files, with a
// failing rename now and then) and sometimes reverts. After every attempt
// each file must be exactly what it was or exactly its new content, and
// the outcome must be the one the interference and faults call for.
func TestApplyProperty(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	g := &gen{rng: rand.New(rand.NewPCG(seed, 7)), outcomes: map[string]int{}}
	p := newProject(t, map[string]string{"a.txt": g.text(5), "b.txt": g.text(3), "run.sh!x": g.text(2), "sub/c.txt": g.text(4), "d.txt": ""})
	m := newManager(t, p)
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	for round := range rounds {
		cs, err := m.Propose(diskReader(p), g.proposal(round, files(snapshot(t, p))))
		if err != nil {
			t.Fatalf("round %d: propose: %v", round, err)
		}
		touched := g.interfere(t, p, cs)
		g.applyRound(t, m, cs, touched)
		// Withdraw what is left waiting, as an agent would, so the rounds
		// stay under the limit on waiting sets.
		if got, err := m.Get(cs.ID); err == nil && got.Undecided() {
			m.Withdraw(cs.ID, "")
		}
	}
	t.Logf("outcomes %v", g.outcomes)
}

func (g *gen) applyRound(t *testing.T, m *Manager, cs ChangeSet, touched map[string]bool) {
	p := m.Project()
	var include []string
	for _, f := range cs.Files {
		if g.rng.IntN(3) != 0 {
			include = append(include, f.Path)
		}
	}
	if len(include) == len(cs.Files) && g.rng.IntN(2) == 0 {
		include = nil // all, spelled the short way
	}
	n := len(include)
	if n == 0 {
		n = len(cs.Files)
	}
	w := &faultyWriter{}
	if g.rng.IntN(4) == 0 {
		w.failRename = 1 + g.rng.IntN(n)
	}
	before := files(snapshot(t, p))
	got, err := m.Apply(cs.ID, include, diskReader(p), w)
	conflict := false
	for _, f := range cs.Files {
		conflict = conflict || (touched[f.Path] && (include == nil || slices.Contains(include, f.Path)))
	}
	switch {
	case conflict:
		g.outcomes["conflict"]++
		if !errors.Is(err, ErrConflict) {
			t.Fatalf("%s: touched %v, include %v: want a conflict, got %v", cs.ID, touched, include, err)
		}
		sameFiles(t, p, before)
	case w.failRename > 0:
		g.outcomes["failed rename"]++
		if !errors.Is(err, errInjected) {
			t.Fatalf("%s: rename %d failing: got %v", cs.ID, w.failRename, err)
		}
		sameFiles(t, p, before)
	case err != nil:
		t.Fatalf("%s: apply: %v", cs.ID, err)
	default:
		g.outcomes[got.State]++
		sameFiles(t, p, applied(before, got))
		if g.rng.IntN(3) == 0 {
			g.revertRound(t, m, got, before)
		}
	}
}

// applied is before with the applied files of cs put in.
func applied(before map[string]tfile, cs ChangeSet) map[string]tfile {
	want := maps.Clone(before)
	for _, f := range cs.Files {
		switch {
		case f.State != StateApplied:
		case f.Action == ActionDelete:
			delete(want, f.Path)
		default:
			mode := before[f.Path].mode
			if !f.BaseExists {
				mode = NewFileMode
			}
			want[f.Path] = tfile{f.New, mode}
		}
	}
	return want
}

func (g *gen) revertRound(t *testing.T, m *Manager, cs ChangeSet, before map[string]tfile) {
	w := &faultyWriter{}
	if g.rng.IntN(3) == 0 {
		w.failRename = 1
	}
	after := files(snapshot(t, m.Project()))
	_, err := m.Revert(cs.ID, diskReader(m.Project()), w)
	switch {
	case w.failRename > 0 && errors.Is(err, errInjected):
		sameFiles(t, m.Project(), after)
	case err != nil:
		t.Fatalf("%s: revert: %v", cs.ID, err)
	default:
		g.outcomes["reverted"]++
		sameFiles(t, m.Project(), before)
	}
}
