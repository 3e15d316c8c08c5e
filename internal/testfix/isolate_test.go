package testfix

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUserFoldersAreIsolated checks what RunIsolated (this package's
// TestMain) did: the user folders and Go's env file are in a temporary
// folder, while the go command still uses the real build cache.
func TestUserFoldersAreIsolated(t *testing.T) {
	dir := os.Getenv(isolatedEnv)
	if dir == "" {
		t.Fatalf("%s is not set: TestMain did not call RunIsolated", isolatedEnv)
	}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "GOENV"} {
		if v := os.Getenv(k); !strings.HasPrefix(v, dir+string(filepath.Separator)) {
			t.Errorf("%s = %q, want a path under %s", k, v, dir)
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	out, err := exec.Command("go", "env", "GOENV", "GOCACHE", "GOTOOLCHAIN").Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 || lines[0] != os.Getenv("GOENV") {
		t.Fatalf("go env GOENV GOCACHE GOTOOLCHAIN = %q, want GOENV %s", lines, os.Getenv("GOENV"))
	}
	if strings.HasPrefix(lines[1], dir) {
		t.Errorf("GOCACHE = %s: a new empty build cache for every test binary", lines[1])
	}
	if lines[2] == "auto" || lines[2] == "" {
		t.Errorf("GOTOOLCHAIN = %q: a test may download a toolchain", lines[2])
	}
}

// TestEveryTestPackageIsolatesItsUserFolders: every package with tests
// in this repository has a TestMain that calls RunIsolated, so no test
// reads or writes the person's configuration.
func TestEveryTestPackageIsolatesItsUserFolders(t *testing.T) {
	root := moduleRoot(t)
	withTests := map[string]bool{}
	isolated := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			// A module of its own (third_party/jsonschema) is outside this
			// module's packages and cannot import testfix; its tests touch
			// no user folder.
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		dir, _ := filepath.Rel(root, filepath.Dir(p))
		withTests[dir] = true
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), "func TestMain(") && strings.Contains(string(src), "RunIsolated(m)") {
			isolated[dir] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(withTests) < 10 {
		t.Fatalf("found tests in only %d folders under %s", len(withTests), root)
	}
	for dir := range withTests {
		if !isolated[dir] {
			t.Errorf("%s: its TestMain must return testfix.RunIsolated(m) (see internal/testfix/isolate.go)", dir)
		}
	}
}

// moduleRoot is the folder of this repository's go.mod.
func moduleRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}
