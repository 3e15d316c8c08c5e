package sweep

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Kind is the type of entry a Class owns.
type Kind int

const (
	// Any is every type of entry.
	Any Kind = iota
	// Folders is folders only.
	Folders
	// Files is regular files only.
	Files
)

// Class is a kind of entry of a swept folder and what a sweep keeps of it.
type Class struct {
	// Match says whether an entry's name is of this class; nil matches
	// every name.
	Match func(name string) bool
	// Kind is the type of entry of this class.
	Kind Kind
	// Unused, when above zero, removes an entry last used longer ago.
	Unused time.Duration
	// Keep, when above zero, caps the entries of this class that stay:
	// the ones in use count first, then the newest of the rest.
	Keep int
	// Recent is the age below which the cap removes nothing: an entry
	// used within Recent stays even beyond Keep.
	Recent time.Duration
}

// Folder is a cache folder to sweep. Sweep is safe for concurrent use
// (two sweeps of one folder remove what either would).
type Folder struct {
	// Dir is the folder.
	Dir string
	// InUse are paths of entries of Dir that a sweep never removes.
	InUse []string
	// Classes are the entries a sweep may remove; the first that matches
	// an entry owns it, and an entry that none matches stays.
	Classes []Class
}

// entry is an entry of a swept folder and its last use.
type entry struct {
	path string
	used time.Time
}

// Sweep removes from f.Dir, as of now, the entries of each class unused
// for longer than its Unused and, of the rest, those beyond its Keep that
// were not used within its Recent. It returns the paths it removed.
func (f Folder) Sweep(now time.Time) (removed []string) {
	entries, err := os.ReadDir(f.Dir)
	if err != nil {
		return nil
	}
	capped := make([][]entry, len(f.Classes))
	for _, e := range entries {
		path := filepath.Join(f.Dir, e.Name())
		i := f.classOf(e)
		info, err := e.Info()
		if i < 0 || err != nil || slices.Contains(f.InUse, path) {
			continue
		}
		c := f.Classes[i]
		if c.Unused > 0 && now.Sub(info.ModTime()) > c.Unused {
			removed = appendRemoved(removed, path)
		} else if c.Keep > 0 {
			capped[i] = append(capped[i], entry{path, info.ModTime()})
		}
	}
	for i, c := range f.Classes {
		removed = append(removed, f.overCap(c, capped[i], now)...)
	}
	return removed
}

// classOf is the index of the class that owns e, or -1.
func (f Folder) classOf(e fs.DirEntry) int {
	return slices.IndexFunc(f.Classes, func(c Class) bool { return c.matches(e.Name(), e.Type()) })
}

// matches reports whether an entry of this name and type is of class c.
func (c Class) matches(name string, typ fs.FileMode) bool {
	switch {
	case c.Kind == Folders && !typ.IsDir(), c.Kind == Files && !typ.IsRegular():
		return false
	}
	return c.Match == nil || c.Match(name)
}

// overCap removes the entries of class c beyond its Keep, newest first
// after the ones in use, that were not used within its Recent.
func (f Folder) overCap(c Class, rest []entry, now time.Time) (removed []string) {
	inUse := 0
	for _, path := range f.InUse {
		if c.Match == nil || c.Match(filepath.Base(path)) {
			inUse++
		}
	}
	slices.SortFunc(rest, func(a, b entry) int { return b.used.Compare(a.used) })
	for i, e := range rest {
		if i+inUse >= c.Keep && now.Sub(e.used) > c.Recent {
			removed = appendRemoved(removed, e.path)
		}
	}
	return removed
}

// appendRemoved removes path and appends it to removed if that worked.
func appendRemoved(removed []string, path string) []string {
	if err := os.RemoveAll(path); err != nil {
		return removed
	}
	return append(removed, path)
}

// MarkUsed marks path as used now, for the sweeps of this and other
// processes. It reports whether that worked (path exists and is ours).
func MarkUsed(path string, now time.Time) bool {
	return os.Chtimes(path, now, now) == nil
}
