package compiled

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// sweepCase is a folder of the supervisor cache, how long ago it was
// used, and whether the sweep keeps it.
type sweepCase struct {
	name string
	age  time.Duration
	kept bool
}

func regularFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// TestSupervisorCacheIsSwept (the user cache's trestle/eval-supervise
// piled up a folder per toolchain and supervisor source): the first
// compiled input of a process sweeps the folder in the background: a
// supervisor nobody used for a month goes, of the rest only the newest
// stay (never one used in the last day, nor the one in use), a build
// folder a killed build left goes, and what the sweep does not recognise
// stays. A binary swept away under a running session is built again.
func TestSupervisorCacheIsSwept(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	parent := filepath.Join(cache, "trestle", "eval-supervise")
	now := time.Now()
	entries := []sweepCase{
		{"00000000000000aa", 60 * 24 * time.Hour, false}, // unused for two months
		{"00000000000000b1", time.Hour, true},            // in use elsewhere
		{"00000000000000b2", 2 * time.Hour, true},        // in use elsewhere
		{"00000000000000c2", 2 * 24 * time.Hour, true},   // the newest of the rest: the cap keeps 4 with the one in use
		{"00000000000000c3", 3 * 24 * time.Hour, false},  // beyond the cap
		{"00000000000000c4", 4 * 24 * time.Hour, false},
		{"build-123", 3 * 24 * time.Hour, false}, // a killed build's
		{"build-456", time.Minute, true},         // a build under way
		{"mine", 90 * 24 * time.Hour, true},      // not the sweep's
	}
	for _, e := range entries {
		dir := filepath.Join(parent, e.name)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "supervise"), []byte("x"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(dir, now.Add(-e.age), now.Add(-e.age)); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := newSession(t)
	res := run(t, s, "1 + 1")
	want(t, res, "2", "int")
	left := func() (out []string) {
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(parent, e.name)); err == nil {
				out = append(out, e.name)
			}
		}
		return out
	}
	testfix.WaitFor(t, time.Minute, "the sweep", func() ([]string, bool) {
		now := left()
		return now, !slices.ContainsFunc(entries, func(e sweepCase) bool { return !e.kept && slices.Contains(now, e.name) })
	})
	for _, e := range entries {
		if e.kept && !slices.Contains(left(), e.name) {
			t.Errorf("%s (%s old) was removed", e.name, e.age)
		}
	}
	var inUse string
	all, _ := os.ReadDir(parent)
	for _, e := range all {
		if !slices.ContainsFunc(entries, func(x sweepCase) bool { return x.name == e.Name() }) {
			inUse = filepath.Join(parent, e.Name(), "supervise")
		}
	}
	if !regularFile(inUse) {
		t.Fatalf("the supervisor in use is not in %s: %v", parent, all)
	}
	if slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "supervisor") }) {
		t.Fatalf("the first input ran without the supervisor: %v", res.Notes)
	}

	// Another process's sweep (or the person) removed it: the next input
	// builds it again rather than failing to start.
	if err := os.RemoveAll(filepath.Dir(inUse)); err != nil {
		t.Fatal(err)
	}
	res = run(t, s, "2 + 2")
	want(t, res, "4", "int")
	if !regularFile(inUse) || slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "supervisor") }) {
		t.Fatalf("the removed supervisor was not built again (there: %v; notes %v)", regularFile(inUse), res.Notes)
	}
}
