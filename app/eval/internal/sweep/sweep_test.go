package sweep

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// item is an entry the test writes into a real folder: its name, whether
// it is a folder, how long ago it was used, and whether the sweep keeps it.
type item struct {
	name string
	dir  bool
	age  time.Duration
	kept bool
}

const day = 24 * time.Hour

// hex16 and isBuild match names of the supervisor cache's entries.
var hex16, isBuild = regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString, regexp.MustCompile(`^build-`).MatchString

// TestSweep sweeps real folders: age limits, caps that count the entries
// in use first and spare recent ones, the first class owning an entry,
// and what no class owns (by name or type) staying.
func TestSweep(t *testing.T) {
	tests := []struct {
		name    string
		classes []Class
		inUse   []string
		items   []item
	}{
		{
			name:    "unused for too long goes",
			classes: []Class{{Kind: Folders, Unused: 30 * day}},
			items: []item{
				{"old", true, 31 * day, false},
				{"young", true, 29 * day, true},
				{"now", true, 0, true},
			},
		},
		{
			name:    "the cap keeps the newest",
			classes: []Class{{Kind: Folders, Keep: 2}},
			items: []item{
				{"a", true, 1 * time.Hour, true},
				{"b", true, 2 * time.Hour, true},
				{"c", true, 3 * time.Hour, false},
				{"d", true, 4 * time.Hour, false},
			},
		},
		{
			name:    "the ones in use count first and never go",
			classes: []Class{{Match: hex16, Kind: Folders, Unused: 30 * day, Keep: 2}},
			inUse:   []string{"00000000000000aa"},
			items: []item{
				{"00000000000000aa", true, 400 * day, true},
				{"00000000000000b1", true, 1 * day, true},
				{"00000000000000b2", true, 2 * day, false},
			},
		},
		{
			name:    "the cap spares the recent ones",
			classes: []Class{{Kind: Files, Keep: 1, Recent: day}},
			items: []item{
				{"a", false, time.Minute, true},
				{"b", false, time.Hour, true},
				{"c", false, 2 * day, false},
			},
		},
		{
			name: "the first class that matches owns the entry",
			classes: []Class{
				{Match: isBuild, Kind: Folders, Unused: day},
				{Match: hex16, Kind: Folders, Unused: 30 * day, Keep: 1},
			},
			items: []item{
				{"build-1", true, 2 * day, false},
				{"build-2", true, time.Minute, true}, // a build under way: the cap of the other class is not its
				{"00000000000000c1", true, 2 * day, true},
				{"00000000000000c2", true, 3 * day, false},
			},
		},
		{
			name:    "what no class owns stays",
			classes: []Class{{Match: hex16, Kind: Folders, Unused: day}, {Match: isBuild, Kind: Files, Unused: day}},
			items: []item{
				{"mine", true, 400 * day, true},
				{"0000000000000dd0", false, 400 * day, true}, // a file where the class wants folders
				{"build-3", true, 400 * day, true},           // a folder where the class wants files
				{"build-4", false, 400 * day, false},
			},
		},
		{
			name:    "any kind",
			classes: []Class{{Unused: day}},
			items: []item{
				{"f", false, 2 * day, false},
				{"d", true, 2 * day, false},
				{"g", false, time.Hour, true},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			now := time.Now()
			for _, it := range tt.items {
				write(t, dir, it, now)
			}
			var inUse []string
			for _, name := range tt.inUse {
				inUse = append(inUse, filepath.Join(dir, name))
			}
			removed := map[string]bool{}
			for _, path := range (Folder{Dir: dir, InUse: inUse, Classes: tt.classes}).Sweep(now) {
				removed[path] = true
			}
			for _, it := range tt.items {
				_, err := os.Lstat(filepath.Join(dir, it.name))
				there := err == nil
				said := removed[filepath.Join(dir, it.name)]
				if there != it.kept || said == it.kept {
					t.Errorf("%s (%s old): there after the sweep %v, said removed %v; want kept %v", it.name, it.age, there, said, it.kept)
				}
			}
		})
	}
}

// write makes it in dir (a folder holds a file, as the caches' do) with
// its modification time it.age before now.
func write(t *testing.T, dir string, it item, now time.Time) {
	t.Helper()
	path := filepath.Join(dir, it.name)
	file := path
	if it.dir {
		if err := os.Mkdir(path, 0o700); err != nil {
			t.Fatal(err)
		}
		file = filepath.Join(path, "content")
	}
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, now.Add(-it.age), now.Add(-it.age)); err != nil {
		t.Fatal(err)
	}
}

// TestMarkUsedKeepsAnEntry: an entry marked used counts as new, so a
// sweep that would have removed it keeps it.
func TestMarkUsedKeepsAnEntry(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	write(t, dir, item{name: "old", dir: true, age: 60 * day}, now)
	if !MarkUsed(filepath.Join(dir, "old"), now) {
		t.Fatal("MarkUsed failed on a folder of ours")
	}
	if removed := (Folder{Dir: dir, Classes: []Class{{Unused: day}}}).Sweep(now); len(removed) > 0 {
		t.Fatalf("the sweep removed %v, marked used just now", removed)
	}
	if MarkUsed(filepath.Join(dir, "gone"), now) {
		t.Error("MarkUsed reported success on a missing entry")
	}
}

// TestSweepOfAMissingFolder: a cache folder not made yet is nothing to do.
func TestSweepOfAMissingFolder(t *testing.T) {
	if removed := (Folder{Dir: filepath.Join(t.TempDir(), "none"), Classes: []Class{{Unused: time.Nanosecond}}}).Sweep(time.Now()); removed != nil {
		t.Fatalf("removed %v from a missing folder", removed)
	}
}
