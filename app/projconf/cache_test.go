package projconf

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestCacheReadsAgainOnlyWhenTheFileChanged writes, rewrites and breaks a
// real .trestle.json: Get reads it again (and OnReload hears) only when its
// size or time changed, and a malformed file gives the defaults and its problem.
func TestCacheReadsAgainOnlyWhenTheFileChanged(t *testing.T) {
	root := t.TempDir()
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, FileName), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := NewCache(root)
	var reloads []Config
	c.OnReload(func(cfg Config) { reloads = append(reloads, cfg) })
	if cfg, err := c.Get(); err != nil || !reflect.DeepEqual(cfg, Defaults()) {
		t.Fatalf("without a file: %+v, %v; want the defaults", cfg, err)
	}
	if _, err := c.Get(); err != nil || len(reloads) != 0 {
		t.Fatalf("unchanged: %d reloads, %v; want none", len(reloads), err)
	}

	write(`{"selections": {"it": {"tags": ["integration"]}}}`)
	cfg, err := c.Get()
	if err != nil || !reflect.DeepEqual(cfg.SelectionNames(), []string{"default", "it"}) {
		t.Fatalf("after writing: %v, %v", cfg.SelectionNames(), err)
	}
	if len(reloads) != 1 || !reflect.DeepEqual(reloads[0].SelectionNames(), []string{"default", "it"}) {
		t.Fatalf("reloads %d after one change", len(reloads))
	}
	if _, err := c.Get(); err != nil || len(reloads) != 1 {
		t.Fatalf("unchanged again: %d reloads, %v", len(reloads), err)
	}

	write(`{"selections": `)
	cfg, err = c.Get()
	if err == nil || !reflect.DeepEqual(cfg, Defaults()) {
		t.Fatalf("malformed: %+v, %v; want the defaults and an error", cfg, err)
	}
	if len(reloads) != 2 {
		t.Fatalf("reloads %d after two changes", len(reloads))
	}
}
