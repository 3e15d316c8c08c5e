package testfix

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// moduleDir is where the module cache holds mod at the version this
// repository requires, downloading it first when the cache lacks it (a
// module reached only through another module's tests, as
// github.com/dlclark/regexp2 is, is in go.sum but nothing downloads it).
// It fails the test, saying what to do, when mod cannot be had.
func moduleDir(tb testing.TB, mod string) string {
	tb.Helper()
	dir, err := goModField(mod, "list", "-m", "-f", "{{.Dir}}", mod)
	if err == nil && dir == "" {
		var modfile string
		if modfile, err = scratchModfile(tb); err == nil {
			dir, err = goModField(mod, "mod", "download", "-modfile", modfile, "-json", mod)
		}
		if err == nil && dir == "" {
			err = fmt.Errorf("go mod download %s gave no folder", mod)
		}
	}
	if err != nil {
		tb.Fatalf("module %s: %v\nRun `go mod download %s` in this repository (it needs the Go module proxy once).", mod, err, mod)
	}
	return dir
}

// scratchModfile copies this repository's go.mod and go.sum into a
// temporary folder and returns the copy of go.mod, for `go -modfile`: go
// mod download records the sums of what it downloads in go.sum, and a
// test must leave the checkout as it found it (`go mod tidy -diff` in
// make check fails on a go.sum with lines tidy would drop).
func scratchModfile(tb testing.TB) (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("find this repository's go.mod: %w", err)
	}
	gomod, dir := strings.TrimSpace(string(out)), tb.TempDir()
	for _, ext := range []string{".mod", ".sum"} {
		data, err := os.ReadFile(strings.TrimSuffix(gomod, ".mod") + ext)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, "download"+ext), data, 0o644); err != nil {
			return "", err
		}
	}
	return filepath.Join(dir, "download.mod"), nil
}

// goModField runs `go args...` in this repository and returns the
// module's folder it prints: the -f output of go list, or the Dir of go
// mod download -json.
func goModField(mod string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if args[0] != "mod" {
		if err != nil {
			return "", fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return strings.TrimSpace(string(out)), nil
	}
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || err != nil {
		return "", fmt.Errorf("go mod download %s: %v %s %s", mod, err, info.Error, strings.TrimSpace(stderr.String()))
	}
	return info.Dir, nil
}

// realTempDir is a new temporary folder with symlinks resolved (a
// project's root is always its real path).
func realTempDir(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// CopyModule copies module mod whole, as the module cache holds it at the
// version this repository requires (its own go.mod, tests and all), into
// a new temporary folder, writable, and returns the folder.
func CopyModule(tb testing.TB, mod string) string {
	tb.Helper()
	src, dst := moduleDir(tb, mod), realTempDir(tb)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		tb.Fatalf("copy %s: %v", mod, err)
	}
	return dst
}

// CopyLibrary copies the non-test Go files of pkgs (folders of module
// mod, "." for its root) from the module cache into a new temporary
// folder that builds offline: its go.mod requires only golang.org/x/sys,
// at this repository's version, whose go.sum lines it copies. It suits a
// module whose library needs nothing else (bbolt, fsnotify).
func CopyLibrary(tb testing.TB, mod string, pkgs ...string) string {
	tb.Helper()
	src, dir := moduleDir(tb, mod), realTempDir(tb)
	for _, pkg := range pkgs {
		files, _ := filepath.Glob(filepath.Join(src, pkg, "*.go"))
		if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
			tb.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, pkg, filepath.Base(f)), b, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	sys, sums := sysRequirement(tb)
	WriteFiles(tb, dir, map[string]string{
		"go.mod": fmt.Sprintf("module %s\n\ngo 1.25.0\n\nrequire %s\n", mod, sys),
		"go.sum": strings.Join(sums, "\n") + "\n",
	})
	return dir
}

// CopyBbolt is CopyLibrary of go.etcd.io/bbolt's library (its commands
// and test helpers need modules the cache may lack): a real module of 20k
// lines.
func CopyBbolt(tb testing.TB) string {
	tb.Helper()
	return CopyLibrary(tb, "go.etcd.io/bbolt", ".", "errors", "internal/common", "internal/freelist",
		"internal/guts_cli", "internal/surgeon", "version")
}

// sysRequirement is this repository's requirement of golang.org/x/sys
// ("golang.org/x/sys vX.Y.Z") and its lines of go.sum.
func sysRequirement(tb testing.TB) (string, []string) {
	tb.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "golang.org/x/sys").Output()
	if err != nil {
		tb.Fatalf("find golang.org/x/sys: %v", err)
	}
	ver := strings.TrimSpace(string(out))
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		tb.Fatalf("find this repository's go.mod: %v", err)
	}
	sum, err := os.ReadFile(filepath.Join(filepath.Dir(strings.TrimSpace(string(gomod))), "go.sum"))
	if err != nil {
		tb.Fatal(err)
	}
	sys := "golang.org/x/sys " + ver
	var sums []string
	for _, l := range strings.Split(string(sum), "\n") {
		if strings.HasPrefix(l, sys+" ") || strings.HasPrefix(l, sys+"/") {
			sums = append(sums, l)
		}
	}
	return sys, sums
}
