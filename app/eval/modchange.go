package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"trestle/app/eval/workerbuild"
)

// A dependency added to go.mod while the evaluator runs is linked without
// a restart: an evaluation that finds go.mod or go.sum changed since the
// selection's last native build starts a build in the background (the
// status bar and trestle_eval's progress say when it is ready), and the
// newer worker takes over at the next input with the state replayed
// (ensure). An input that imports a package outside the project that the
// last plan did not list waits for that build, up to modWait.

// modWait bounds how long an input that needs the new dependency waits.
const modWait = 5 * time.Minute

// modSum hashes the project's go.mod and go.sum.
func modSum(root string) string {
	h := sha256.New()
	for _, name := range []string{"go.mod", "go.sum"} {
		data, _ := os.ReadFile(filepath.Join(root, name))
		h.Write(data)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// refreshOnModChange starts a native build when go.mod or go.sum changed
// since the selection's last one, and waits for it when code imports a
// package the last plan does not know. It returns a note, or "".
func (m *Manager) refreshOnModChange(ctx context.Context, name, code string) string {
	if !m.opts.Native {
		return ""
	}
	ns := m.native(name)
	ns.mu.Lock()
	last, plan, building := ns.modSum, ns.plan, ns.building != nil
	ns.mu.Unlock()
	if last == "" || building || modSum(m.opts.Root) == last {
		return ""
	}
	done := m.refresh(name)
	if plan == nil || !importsUnknown(plan.Packages, code, m.opts.Module) {
		return "go.mod changed: the native evaluator is being rebuilt in the background; it takes over when it is ready, with your state"
	}
	t := time.NewTimer(modWait)
	defer t.Stop()
	select {
	case <-done:
		return "go.mod changed: rebuilt the native evaluator with the new dependencies"
	case <-ctx.Done():
	case <-t.C:
	}
	return "go.mod changed: the native evaluator is still being rebuilt with the new dependencies"
}

// importsUnknown reports whether code imports a package outside the
// project and the standard library that pkgs does not list.
func importsUnknown(pkgs []workerbuild.Package, code, module string) bool {
	for _, path := range importsOf(code) {
		first, _, _ := strings.Cut(path, "/")
		if !strings.Contains(first, ".") || (module != "" && (path == module || strings.HasPrefix(path, module+"/"))) {
			continue
		}
		if !slices.ContainsFunc(pkgs, func(p workerbuild.Package) bool { return p.Path == path }) {
			return true
		}
	}
	return false
}
