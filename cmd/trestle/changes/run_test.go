package changes

import (
	"bytes"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestRunCollectsLessAndPutsTheCollectorBack: a command runs with the
// collector set lighter (lightGC: GOGC 400), and Run leaves it as it found
// it, so a caller in the same process (a test, say) keeps its own settings.
func TestRunCollectsLessAndPutsTheCollectorBack(t *testing.T) {
	percent := debug.SetGCPercent(150)
	limit := debug.SetMemoryLimit(1 << 40)
	defer debug.SetGCPercent(percent)
	defer debug.SetMemoryLimit(limit)
	dir := t.TempDir()
	c, err := Parse([]string{"list", dir})
	if err != nil {
		t.Fatal(err)
	}
	during := 0
	storePath := func() (string, error) {
		during = debug.SetGCPercent(-1)
		debug.SetGCPercent(during)
		return filepath.Join(t.TempDir(), "state.db"), nil
	}
	var out, errOut bytes.Buffer
	if code := Run(nil, &out, &errOut, c, storePath); code != 0 || !strings.Contains(out.String(), "No change sets") {
		t.Fatalf("list: exit %d: %s%s", code, out.String(), errOut.String())
	}
	if during != 400 {
		t.Errorf("GC percent during the command: %d, want 400", during)
	}
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("GC percent after Run: %d, want the 150 set before", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit after Run: %d, want the one set before", got)
	}
}
