package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// staleTemp is how old a leftover temp file must be before Reap removes it.
const staleTemp = time.Minute

// tempSuffix ends the names of files Write has not yet renamed into place.
const tempSuffix = ".tmp"

// Entry is one live window's record; the file is <dir>/<pid>.json.
type Entry struct {
	PID     int       `json:"pid"`
	Port    int       `json:"port"`
	Dir     string    `json:"dir"`     // project folder, absolute, symlinks resolved
	Token   string    `json:"token"`   // 64 hex chars
	Started time.Time `json:"started"` // marshals RFC 3339
	Version string    `json:"version"`
}

// Registry is a folder of entries. It is safe for concurrent use: it holds
// no state besides Dir.
type Registry struct{ Dir string }

// New returns a Registry kept in dir.
func New(dir string) *Registry { return &Registry{Dir: dir} }

// path returns the entry file name for pid.
func (r *Registry) path(pid int) string {
	return filepath.Join(r.Dir, strconv.Itoa(pid)+".json")
}

// Write stores e as <Dir>/<pid>.json. It creates Dir with mode 0700 (and
// tightens an existing Dir to 0700), writes a 0600 temp file in Dir, syncs
// it and renames it over the final name, so readers never see a partial
// entry.
func (r *Registry) Write(e Entry) error {
	if e.PID <= 0 {
		return fmt.Errorf("registry: write entry: invalid pid %d", e.PID)
	}
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return fmt.Errorf("registry: encode entry for pid %d: %w", e.PID, err)
	}
	if err := r.ensureDir(); err != nil {
		return err
	}
	tmp, err := r.writeTemp(e.PID, append(data, '\n'))
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, r.path(e.PID)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("registry: rename entry for pid %d into place: %w", e.PID, err)
	}
	syncDir(r.Dir)
	return nil
}

// ensureDir creates Dir if needed and makes its mode 0700.
func (r *Registry) ensureDir() error {
	if err := os.MkdirAll(r.Dir, 0o700); err != nil {
		return fmt.Errorf("registry: create folder %s: %w", r.Dir, err)
	}
	if err := os.Chmod(r.Dir, 0o700); err != nil {
		return fmt.Errorf("registry: set mode 0700 on folder %s: %w", r.Dir, err)
	}
	return nil
}

// writeTemp writes data to a new 0600 temp file in Dir, syncs it and
// returns its name. On failure the temp file is removed.
func (r *Registry) writeTemp(pid int, data []byte) (name string, err error) {
	f, err := os.CreateTemp(r.Dir, "."+strconv.Itoa(pid)+"-*"+tempSuffix)
	if err != nil {
		return "", fmt.Errorf("registry: create temp file for pid %d: %w", pid, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o600); err != nil {
		return "", fmt.Errorf("registry: set mode 0600 on %s: %w", f.Name(), err)
	}
	if _, err := f.Write(data); err != nil {
		return "", fmt.Errorf("registry: write %s: %w", f.Name(), err)
	}
	if err := f.Sync(); err != nil {
		return "", fmt.Errorf("registry: sync %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("registry: close %s: %w", f.Name(), err)
	}
	return f.Name(), nil
}

// syncDir flushes a directory so a rename survives a crash; best effort.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Remove deletes the entry for pid; a missing file is not an error.
func (r *Registry) Remove(pid int) error {
	err := os.Remove(r.path(pid))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("registry: remove entry for pid %d: %w", pid, err)
	}
	return nil
}

// Has reports whether an entry file for pid exists.
func (r *Registry) Has(pid int) bool {
	_, err := os.Stat(r.path(pid))
	return err == nil
}

// Reap removes entries whose pid is dead, entry files that cannot be read
// or decoded, and temp files older than a minute, and returns the live
// entries sorted by Started. A missing Dir yields an empty list. Removal is
// best effort: a file that cannot be removed is skipped, not reported.
func (r *Registry) Reap() ([]Entry, error) {
	items, err := os.ReadDir(r.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("registry: read folder %s: %w", r.Dir, err)
	}
	var live []Entry
	for _, it := range items {
		if e, ok := r.reapOne(it); ok {
			live = append(live, e)
		}
	}
	slices.SortStableFunc(live, func(a, b Entry) int {
		if c := a.Started.Compare(b.Started); c != 0 {
			return c
		}
		return a.PID - b.PID
	})
	return live, nil
}

// reapOne handles one folder item, removing it if stale, and reports the
// entry it holds when that entry is live.
func (r *Registry) reapOne(it os.DirEntry) (Entry, bool) {
	name := it.Name()
	full := filepath.Join(r.Dir, name)
	switch {
	case it.IsDir():
		return Entry{}, false
	case strings.HasSuffix(name, tempSuffix):
		if info, err := it.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(full)
		}
		return Entry{}, false
	case !strings.HasSuffix(name, ".json"):
		return Entry{}, false
	}
	e, err := readEntry(full)
	if err != nil || strconv.Itoa(e.PID)+".json" != name || !Alive(e.PID) {
		os.Remove(full)
		return Entry{}, false
	}
	return e, true
}

// readEntry reads and decodes one entry file.
func readEntry(path string) (Entry, error) {
	var e Entry
	data, err := os.ReadFile(path)
	if err != nil {
		return e, err
	}
	err = json.Unmarshal(data, &e)
	return e, err
}
