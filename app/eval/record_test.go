package eval

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestUnusedSelectionRecordsAreSwept: the per-user records of native
// builds (one per project and selection ever opened) do not pile up: the
// first build of an evaluator sweeps them in the background, removing
// records no build wrote for 90 days and the temporary files of killed
// writes, and keeping recent records and the evaluator's own, however old.
func TestUnusedSelectionRecordsAreSwept(t *testing.T) {
	cache := t.TempDir()
	m := NewManager(ManagerOptions{Root: newDemo(t), Module: "example.com/demo", WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: cache})
	t.Cleanup(m.Close)
	dir := filepath.Join(cache, "selections")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	files := []struct {
		name string
		age  time.Duration
		kept bool
	}{
		{"0123456789abcdef01234567.json", 120 * 24 * time.Hour, false}, // a project not opened since
		{"89abcdef0123456789abcdef.json", 10 * 24 * time.Hour, true},   // opened last week
		{"89abcdef0123456789abcdef.json.tmp-123", 2 * 24 * time.Hour, false},
		{"89abcdef0123456789abcdef.json.tmp-456", time.Second, true}, // a write under way
		{filepath.Base(m.recordPath("default")), 200 * 24 * time.Hour, true},
		{"notes.txt", 400 * 24 * time.Hour, true}, // not the sweep's
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, []byte(`{"binary":""}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, now.Add(-f.age), now.Add(-f.age)); err != nil {
			t.Fatal(err)
		}
	}
	wantValue(t, mustEval(t, m, "", "1 + 2"), "3", "int") // starts the native build, in the background
	there := func() (out []string) {
		for _, f := range files {
			if _, err := os.Stat(filepath.Join(dir, f.name)); err == nil {
				out = append(out, f.name)
			}
		}
		return out
	}
	testfix.WaitFor(t, time.Minute, "the sweep of the records", func() ([]string, bool) {
		now := there()
		return now, !slices.Contains(now, files[0].name) && !slices.Contains(now, files[2].name)
	})
	for _, f := range files {
		if f.kept && !slices.Contains(there(), f.name) {
			t.Errorf("%s (%s old) was removed", f.name, f.age)
		}
	}
}
