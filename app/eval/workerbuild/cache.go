package workerbuild

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"trestle/app/eval/evalworker"
	"trestle/app/eval/internal/sweep"
)

// The per-user cache of worker builds: keys, write-once folders, pruning.

// keepWorkers is how many worker builds the cache keeps (about 32 MB
// each): enough for a few projects and selections; the most recently
// used stay.
const keepWorkers = 12

// staleWork is the age past which a build folder left by a killed build
// is removed.
const staleWork = 24 * time.Hour

// unusedTables is how long a dependency's table module stays in the cache
// after the last build that used it.
const unusedTables = 30 * 24 * time.Hour

// prune removes all but the newest keep folders of dir, never keepDir
// (which counts as one of them).
func prune(dir string, keep int, keepDir string) {
	sweep.Folder{Dir: dir, InUse: []string{keepDir}, Classes: []sweep.Class{{Kind: sweep.Folders, Keep: keep}}}.Sweep(time.Now())
}

// removeUnused removes the folders of dir that no build has touched for
// unusedTables (builds touch the table modules they use).
func removeUnused(dir string) {
	sweep.Folder{Dir: dir, Classes: []sweep.Class{{Kind: sweep.Folders, Unused: unusedTables}}}.Sweep(time.Now())
}

// removeStaleWork removes build folders that killed builds left behind.
func removeStaleWork(dir string) {
	sweep.Folder{Dir: dir, Classes: []sweep.Class{{Unused: staleWork}}}.Sweep(time.Now())
}

// writeOnce fills dir with fill, through a temporary folder renamed into
// place, so that concurrent builds (two windows) never see half a folder.
func writeOnce(dir string, fill func(tmp string) error) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tmp-"+filepath.Base(dir)+"-")
	if err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	if err := fill(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(dir); serr == nil {
			return nil // another process won the race
		}
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	return nil
}

// Key is the cache key of a worker: the toolchain, the selection's tags
// and environment, go.mod and go.sum, the worker loop and generator
// versions, the native package set and the source of the project's native
// packages.
func Key(o Options, plan *Plan, tc toolchain) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "trestle-eval-worker v4\x00%s\x00%s\x00%s\x00%s\x00%s\x00", tc.GOVERSION, tc.GOOS, tc.GOARCH, tc.settings(), yaegiVersion)
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", loopHash(), genHash(), hashBytes([]byte(stdSymbolsFile+depsSymbolsFile+mainFile)))
	tags := slices.Clone(o.Tags)
	slices.Sort(tags)
	fmt.Fprintf(h, "tags %q\x00", tags)
	for _, kv := range sortedEnv(o.Env) {
		fmt.Fprintf(h, "env %q\x00", kv)
	}
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(o.Root, name))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("build the native evaluator: %w", err)
		}
		fmt.Fprintf(h, "%s %x\x00", name, sha256.Sum256(data))
	}
	fmt.Fprintf(h, "dirs %s %s\x00", plan.WorkerDir, plan.tablesDir)
	for _, pkg := range plan.Packages {
		if !pkg.linked(o.Link) {
			continue
		}
		fmt.Fprintf(h, "native %s\x00", pkg.Path)
		for _, f := range pkg.files {
			data, err := os.ReadFile(f)
			if err != nil {
				return "", fmt.Errorf("build the native evaluator: %w", err)
			}
			rel, _ := filepath.Rel(o.Root, f) // relative: the same project elsewhere shares the build
			fmt.Fprintf(h, "%s %x\x00", filepath.ToSlash(rel), sha256.Sum256(data))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

var loopHashOnce = sync.OnceValue(func() string {
	h := sha256.New()
	entries, _ := fs.ReadDir(evalworker.Source, ".")
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			continue // not part of the worker
		}
		data, _ := fs.ReadFile(evalworker.Source, e.Name())
		fmt.Fprintf(h, "%s %x\x00", e.Name(), sha256.Sum256(data))
	}
	return hex.EncodeToString(h.Sum(nil))
})

func loopHash() string { return loopHashOnce() }

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// sortedEnv is env as sorted "k=v" lines.
func sortedEnv(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}
