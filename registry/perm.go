package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CheckPrivate checks that the registry is private to the user, as
// --mcp-attach requires before it trusts an entry: Dir (when it exists)
// belongs to the user and has no group or other permission bits (0700),
// and so does every entry file in it (0600), which must be a regular file.
// An entry others can read gives away its window's token; a folder others
// can write lets them plant an entry that points the bridge at their own
// port. A missing Dir is private (no window is open). Any other finding is
// a *NotPrivateError that names the file and says how to fix it. On
// systems without Unix permissions it always returns nil.
func (r *Registry) CheckPrivate() error {
	if !unixPerms {
		return nil
	}
	info, err := os.Stat(r.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("registry: check folder %s: %w", r.Dir, err)
	}
	if err := checkPrivate(r.Dir, info, true); err != nil {
		return err
	}
	items, err := os.ReadDir(r.Dir)
	if err != nil {
		return fmt.Errorf("registry: read folder %s: %w", r.Dir, err)
	}
	for _, it := range items {
		if !strings.HasSuffix(it.Name(), ".json") {
			continue
		}
		full := filepath.Join(r.Dir, it.Name())
		info, err := os.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since the listing: a window stopped
		}
		if err != nil {
			return fmt.Errorf("registry: check %s: %w", full, err)
		}
		if err := checkPrivate(full, info, false); err != nil {
			return err
		}
	}
	return nil
}

// checkPrivate checks one folder or entry file.
func checkPrivate(path string, info fs.FileInfo, dir bool) error {
	e := &NotPrivateError{Path: path, Dir: dir, Mode: info.Mode()}
	switch {
	case dir && !info.IsDir(), !dir && !info.Mode().IsRegular():
		e.Problem = "not a plain " + e.kind()
	case !ownedByUser(info):
		e.Problem = "owned by another user"
	case info.Mode().Perm()&0o077 != 0:
		e.Problem = problemOpen
	default:
		return nil
	}
	return e
}

// problemOpen is the Problem of a folder or file with group or other bits.
const problemOpen = "open to other users"

// NotPrivateError is a registry folder or entry file that other users could
// read or write. Its Error is a message for a person on stderr.
type NotPrivateError struct {
	Path    string
	Dir     bool        // the registry folder, not an entry file
	Mode    fs.FileMode // as found
	Problem string      // "open to other users", "owned by another user", "not a plain file"
}

func (e *NotPrivateError) kind() string {
	if e.Dir {
		return "folder"
	}
	return "file"
}

// Error names the file, what is wrong and the command that fixes it.
func (e *NotPrivateError) Error() string {
	want, fix := "0600", "chmod 600 "+e.Path
	if e.Dir {
		want, fix = "0700", "chmod 700 "+e.Path
	}
	if e.Problem != problemOpen {
		fix = "rm -r " + e.Path + " (a window writes its entry again when it next starts)"
	}
	return fmt.Sprintf("refusing the Trestle registry %s %s: it is %s (mode %v), so other users could read window "+
		"tokens or plant entries; it must be yours with mode %s. Fix it with: %s", e.kind(), e.Path, e.Problem, e.Mode, want, fix)
}
