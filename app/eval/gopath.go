package eval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// downloadTimeout bounds `go mod download` when required modules are missing.
const downloadTimeout = 2 * time.Minute

// mountPoint maps an import path prefix (a module path) to a folder.
type mountPoint struct {
	path string // module path
	dir  string // its source folder
}

// BuildGoPath lays out dir as the GOPATH yaegi imports from: dir/src/<module
// path> links to root for the project's own module, and to each required
// module's folder in modCache (replace directives honoured). When required
// modules are missing from the module cache it runs `go mod download` in
// root once and says so in the notes. A project without go.mod gets an empty
// tree. dir must be empty or missing. It is safe for concurrent use with
// distinct dirs.
func BuildGoPath(ctx context.Context, dir, root, modCache string) (notes []string, err error) {
	return buildGoPath(ctx, dir, root, modCache, true)
}

// buildGoPath is BuildGoPath; download false skips `go mod download`.
func buildGoPath(ctx context.Context, dir, root, modCache string, download bool) (notes []string, err error) {
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return nil, fmt.Errorf("build GOPATH %s: %w", dir, err)
	}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if errors.Is(err, fs.ErrNotExist) {
		return []string{"no go.mod in the project: only the standard library can be imported"}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("build GOPATH: read go.mod: %w", err)
	}
	mf, err := modfile.Parse(filepath.Join(root, "go.mod"), data, nil)
	if err != nil {
		return nil, fmt.Errorf("build GOPATH: %w", err)
	}
	mounts, missing := modMounts(mf, root, modCache)
	if len(missing) > 0 && download {
		notes = append(notes, downloadModules(ctx, root, missing)...)
		mounts, missing = modMounts(mf, root, modCache)
	}
	if len(missing) > 0 {
		notes = append(notes, fmt.Sprintf("missing from the module cache, importing them will fail: %s", strings.Join(missing, ", ")))
	}
	return notes, mount(src, mounts)
}

// modMounts lists the main module and every required module found on disk,
// and the required modules that are not.
func modMounts(mf *modfile.File, root, modCache string) (mounts []mountPoint, missing []string) {
	if mf.Module != nil {
		mounts = append(mounts, mountPoint{path: mf.Module.Mod.Path, dir: root})
	}
	for _, req := range mf.Require {
		dir, err := moduleDir(mf, req.Mod, root, modCache)
		if err != nil {
			missing = append(missing, req.Mod.String())
			continue
		}
		mounts = append(mounts, mountPoint{path: req.Mod.Path, dir: dir})
	}
	return mounts, missing
}

// moduleDir finds m's source folder: a local replacement, or the module
// cache folder of m (or of its replacement).
func moduleDir(mf *modfile.File, m module.Version, root, modCache string) (string, error) {
	for _, r := range mf.Replace {
		if r.Old.Path != m.Path || (r.Old.Version != "" && r.Old.Version != m.Version) {
			continue
		}
		if modfile.IsDirectoryPath(r.New.Path) {
			dir := r.New.Path
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(root, dir)
			}
			return existingDir(dir)
		}
		m = r.New
	}
	escPath, err := module.EscapePath(m.Path)
	if err != nil {
		return "", err
	}
	escVer, err := module.EscapeVersion(m.Version)
	if err != nil {
		return "", err
	}
	return existingDir(filepath.Join(modCache, filepath.FromSlash(escPath)+"@"+escVer))
}

func existingDir(dir string) (string, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !info.IsDir() {
		return "", fmt.Errorf("%s is not a folder", dir)
	}
	return dir, nil
}

// downloadModules runs `go mod download` in root and returns notes saying so.
func downloadModules(ctx context.Context, root string, missing []string) []string {
	ctx, cancel := context.WithTimeout(ctx, downloadTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "mod", "download")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	note := fmt.Sprintf("ran `go mod download` in the project: %d required module(s) were missing from the module cache (%s)", len(missing), strings.Join(missing, ", "))
	if err != nil {
		return []string{note, fmt.Sprintf("go mod download failed: %v: %s", err, strings.TrimSpace(string(out)))}
	}
	return []string{note}
}

// mount creates the links under src. A module path nested in another (a/b
// and a/b/c) gets a real folder whose entries link one by one, so both fit.
func mount(src string, mounts []mountPoint) error {
	slices.SortFunc(mounts, func(a, b mountPoint) int { return strings.Compare(a.path, b.path) })
	for i, m := range mounts {
		target := filepath.Join(src, filepath.FromSlash(m.path))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("build GOPATH: %w", err)
		}
		var err error
		if nested := nestedNames(m, mounts[i+1:]); len(nested) > 0 {
			err = linkEntries(target, m.dir, nested)
		} else if _, statErr := os.Lstat(target); statErr == nil {
			continue // the same module path twice (a replace); the first wins
		} else {
			err = os.Symlink(m.dir, target)
		}
		if err != nil {
			return fmt.Errorf("build GOPATH: map %s: %w", m.path, err)
		}
	}
	return nil
}

// nestedNames returns the first path element, below m, of each later mount
// that is nested in m.
func nestedNames(m mountPoint, later []mountPoint) map[string]bool {
	names := map[string]bool{}
	for _, n := range later {
		if rest, ok := strings.CutPrefix(n.path, m.path+"/"); ok {
			names[strings.SplitN(rest, "/", 2)[0]] = true
		}
	}
	return names
}

// linkEntries makes target a real folder linking each entry of dir, except
// the names that nested modules will occupy.
func linkEntries(target, dir string, skip map[string]bool) error {
	if err := os.MkdirAll(target, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if skip[e.Name()] {
			continue
		}
		if err := os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(target, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// goModCache returns GOMODCACHE from the environment or from `go env`.
func goModCache(ctx context.Context) (string, error) {
	if dir := os.Getenv("GOMODCACHE"); dir != "" {
		return dir, nil
	}
	out, err := exec.CommandContext(ctx, "go", "env", "GOMODCACHE").Output()
	if err != nil {
		return "", fmt.Errorf("find the module cache with `go env GOMODCACHE`: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}
