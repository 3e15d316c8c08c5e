package changeset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"trestle/app/errdefs"
)

// Selection picks hunks of a change set: for each path, the hunk numbers
// (see Hunks) to act on; a path mapped to nil means every hunk of the file
// still pending, and to an empty non-nil slice, none. Paths absent are
// left as they are.
type Selection map[string][]int

// undecidedHunk reports whether a hunk (or a file, in a record from before
// per-hunk review) in state s may still be applied or rejected.
func undecidedHunk(s string) bool {
	return s == StatePending || s == StateConflict || s == StateStale || s == FileSkipped
}

// Undecided reports whether the hunk may still be applied or rejected.
func (h HunkState) Undecided() bool { return undecidedHunk(h.State) }

// CanApply reports whether some hunk of f may still be applied (or
// rejected); a file of a record from before per-hunk review, without hunk
// states, by its own state.
func (f FileChange) CanApply() bool {
	if len(f.Hunks) == 0 {
		return undecidedHunk(f.State)
	}
	for _, h := range f.Hunks {
		if h.Undecided() {
			return true
		}
	}
	return false
}

// pendingHunks returns n pending hunk states.
func pendingHunks(n int) []HunkState {
	out := make([]HunkState, n)
	for i := range out {
		out[i] = HunkState{N: i + 1, State: StatePending}
	}
	return out
}

// setHunkStats gives f its diff stats and one pending state per hunk,
// from one diff.
func setHunkStats(f *FileChange) {
	plans := planHunks(f.Base, f.New)
	f.Added, f.Removed = 0, 0
	for _, h := range plans {
		f.Added += h.Added()
		f.Removed += h.Removed()
	}
	f.Hunks = pendingHunks(max(1, len(plans)))
}

// units is how many hunk states f has: one per hunk, and one for a file
// without any (an empty new file).
func units(f FileChange) int { return max(1, len(planHunks(f.Base, f.New))) }

// hunkStateOfFile is the state a record from before per-hunk review gives
// each hunk of a file in state s.
func hunkStateOfFile(s string) string {
	switch s {
	case StateApplied, FileReverted, FileRejected, FileWithdrawn:
		return s
	case StateConflict:
		return StateConflict
	}
	return StatePending // pending, stale, skipped
}

// normalizeRecord gives every file of a record (no bodies) its hunk
// states: a record from before per-hunk review has none, so its file gets
// one, from the file's state, and attach spreads it over the real hunks
// (once such a record is stored again, the file stays one unit).
func normalizeRecord(cs *ChangeSet) {
	for i := range cs.Files {
		if f := &cs.Files[i]; len(f.Hunks) == 0 {
			f.Hunks = []HunkState{{N: 1, State: hunkStateOfFile(f.State)}}
			f.legacy = true
		}
	}
}

// normalizeBodies makes f's hunk states match its hunks (f has its
// bodies). They differ for a record from before per-hunk review, which
// has one state for the whole file, and after a crash between storing the
// person's edited text and its record: then nothing of the file was
// applied, and every hunk takes the first one's state.
func normalizeBodies(f *FileChange) {
	n := units(*f)
	if len(f.Hunks) == n {
		return
	}
	s := StatePending
	if len(f.Hunks) > 0 {
		s = f.Hunks[0].State
	}
	f.Hunks = make([]HunkState, n)
	for i := range f.Hunks {
		f.Hunks[i] = HunkState{N: i + 1, State: s}
	}
}

// hunksIn returns the numbers of f's hunks in state s.
func hunksIn(f FileChange, s ...string) []int {
	var out []int
	for _, h := range f.Hunks {
		if slices.Contains(s, h.State) {
			out = append(out, h.N)
		}
	}
	return out
}

// choose checks sel against cs and returns, for each path it names, the
// undecided hunks it picks, sorted. It refuses a path not in cs, a hunk
// number the file does not have, and a hunk already decided.
func choose(cs ChangeSet, sel Selection) (map[string][]int, error) {
	out := make(map[string][]int, len(sel))
	for path, ns := range sel {
		f := cs.File(path)
		if f == nil {
			return nil, invalid("%s is not a file of this change set", path)
		}
		if ns != nil && len(ns) == 0 {
			continue // no hunk of it: nothing to do
		}
		if ns == nil {
			if ns = hunksIn(*f, StatePending, StateConflict); len(ns) == 0 {
				return nil, invalid("%s has nothing pending (it is %s)", path, f.State)
			}
		}
		ns = slices.Compact(slices.Sorted(slices.Values(ns)))
		for _, n := range ns {
			if n < 1 || n > len(f.Hunks) {
				return nil, invalid("%s has no hunk %d: it has %d", path, n, len(f.Hunks))
			}
			if s := f.Hunks[n-1].State; !undecidedHunk(s) {
				return nil, invalid("hunk %d of %s is %s already", n, path, s)
			}
		}
		out[path] = ns
	}
	if len(out) == 0 {
		return nil, invalid("nothing is selected")
	}
	return out, nil
}

// everything pending of cs, as a Selection.
func everythingPending(cs ChangeSet) Selection {
	sel := Selection{}
	for _, f := range cs.Files {
		if len(hunksIn(f, StatePending, StateConflict)) > 0 {
			sel[f.Path] = nil
		}
	}
	return sel
}

// setHunks gives the hunks ns of the record's file path state s, first
// taking the hunk states of full (the same set with its bodies) when the
// record has fewer (see normalizeBodies).
func setHunks(rec *ChangeSet, full ChangeSet, path string, ns []int, s string) *FileChange {
	f := rec.File(path)
	if ff := full.File(path); ff != nil && len(f.Hunks) != len(ff.Hunks) {
		f.Hunks = slices.Clone(ff.Hunks)
	}
	for _, n := range ns {
		if n >= 1 && n <= len(f.Hunks) {
			f.Hunks[n-1] = HunkState{N: n, State: s}
		}
	}
	return f
}

// fileStateOf is a file's state as its hunks make it.
func fileStateOf(f FileChange) string {
	count := map[string]int{}
	for _, h := range f.Hunks {
		count[h.State]++
	}
	n := len(f.Hunks)
	switch {
	case n == 0:
		return f.State
	case count[FileReverted] > 0:
		return FileReverted
	case count[StateApplied] == n:
		return StateApplied
	case count[StateApplied] > 0:
		return StatePartlyApplied
	case count[FileWithdrawn] > 0:
		return FileWithdrawn
	case count[FileRejected] == n:
		return FileRejected
	case count[StateConflict] > 0:
		return StateConflict
	case f.State == StateStale:
		return StateStale
	}
	return StatePending
}

// settle sets every file's state from its hunks, and the set's from its
// files. A withdrawn set stays withdrawn.
func settle(cs *ChangeSet) {
	count := map[string]int{}
	for i := range cs.Files {
		f := &cs.Files[i]
		f.State = fileStateOf(*f)
		if f.State != StateConflict && f.State != StateStale {
			f.Detail = ""
		}
		count[f.State]++
	}
	n := len(cs.Files)
	switch {
	case cs.State == StateWithdrawn:
	case count[FileReverted] > 0:
		cs.State = StateReverted
	case count[StateApplied] == n:
		cs.State = StateApplied
	case count[StateApplied]+count[StatePartlyApplied] > 0:
		cs.State = StatePartlyApplied
	case count[FileRejected] == n:
		cs.State = StateRejected
	case count[StateConflict] > 0:
		cs.State = StateConflict
	case count[StateStale] > 0:
		cs.State = StateStale
	default:
		cs.State = StatePending
	}
}

// joinInts is "1, 3, 4".
func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// ParseHunkRef reads "PATH:N" (as `trestle changes apply --hunk` takes it)
// into its path and hunk number. The number is after the last colon, so a
// path may hold colons.
func ParseHunkRef(ref string) (string, int, error) {
	i := strings.LastIndexByte(ref, ':')
	if i <= 0 {
		return "", 0, fmt.Errorf("hunk %q is not like PATH:N (e.g. main.go:2): %w", ref, errdefs.ErrInvalid)
	}
	n, err := strconv.Atoi(ref[i+1:])
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("hunk %q: %q is not a hunk number (1, 2, ...): %w", ref, ref[i+1:], errdefs.ErrInvalid)
	}
	return ref[:i], n, nil
}
