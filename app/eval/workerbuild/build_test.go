package workerbuild

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
	"trestle/app/task"
)

// trestleRoot is this repository's module root.
func trestleRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestYaegiSumMatchesTrestle(t *testing.T) {
	sum, err := os.ReadFile(filepath.Join(trestleRoot(t), "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(yaegiSum), "\n") {
		if !strings.Contains(string(sum), line+"\n") {
			t.Errorf("trestle's go.sum lacks %q: update yaegiVersion and yaegiSum", line)
		}
	}
}

func TestPlanSaysWhatIsNativeAndWhy(t *testing.T) {
	root := t.TempDir()
	if err := evaltest.Write(root, trestleRoot(t)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plan, err := MakePlan(ctx, Options{Root: root, Module: evaltest.Module})
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]string{}
	for _, p := range plan.Packages {
		modes[p.Path] = p.Mode + ": " + p.Reason
	}
	want := map[string]string{
		evaltest.Module + "/store":     ModeInterpreted,
		evaltest.Module + "/calc":      ModeInterpreted,
		evaltest.Module + "/raw":       ModeNative + ": uses unsafe",
		evaltest.Module + "/shared":    ModeNative + ": imported by " + evaltest.Module + "/raw",
		evaltest.Module + "/cmd/tool":  ModeNone,
		"go.etcd.io/bbolt":             ModeNative,
		"github.com/fsnotify/fsnotify": ModeNative,
		"golang.org/x/sys/unix":        ModeNative,
	}
	if evaltest.HasAssembly() {
		want[evaltest.Module+"/fast"] = ModeNative + ": has assembly"
		want[evaltest.Module+"/lib/internal/fastsum"] = ModeNative + ": has assembly"
	}
	for path, prefix := range want {
		if !strings.HasPrefix(modes[path], prefix) {
			t.Errorf("%s: got %q, want %q...", path, modes[path], prefix)
		}
	}
	if slices.ContainsFunc(plan.Native(), func(p string) bool { return strings.Contains(p, "fsnotify/internal") }) {
		t.Errorf("a dependency's internal package cannot be linked: %v", plan.Native())
	}
	if _, err := os.Stat(filepath.Join(root, workerDir)); err == nil {
		t.Fatal("planning wrote into the project")
	}
}

// snapshot lists a tree's files with their sizes and modification times.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out[path] = info.ModTime().String() + " " + info.Mode().String() + " " + strconv.FormatInt(info.Size(), 10)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBuildIsCachedAndNeverWritesTheProject(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	root := t.TempDir()
	if err := evaltest.Write(root, trestleRoot(t)); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	o := Options{Root: root, Module: evaltest.Module, CacheDir: evaltest.CacheDir()}
	plan, err := MakePlan(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	var phases []string
	res, err := Build(ctx, o, plan, func(e Event) {
		if len(phases) == 0 || phases[len(phases)-1] != e.Phase {
			phases = append(phases, e.Phase)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first build: cached=%v phases=%v skipped=%v", res.Cached, phases, res.Skipped)
	if !res.Cached && (len(phases) == 0 || phases[len(phases)-1] != PhaseReady) {
		t.Errorf("a fresh build should end with the ready phase: %v", phases)
	}
	start := time.Now()
	again, err := Build(ctx, o, plan, nil)
	if err != nil || !again.Cached || again.Binary != res.Binary {
		t.Fatalf("second build: %+v, %v; want the cached %s", again, err, res.Binary)
	}
	t.Logf("cached lookup: %s", time.Since(start))
	if after := snapshot(t, root); !maps.Equal(before, after) {
		t.Fatalf("the build changed the project:\nbefore %v\nafter  %v", before, after)
	}
}

func TestTableHome(t *testing.T) {
	const mod = "example.com/m"
	tests := []struct {
		name, path, home string
		ok               bool
	}{
		{"below the module root", mod + "/a/internal/x", mod + "/a/" + tablesDir, true},
		{"deeper", mod + "/a/b/internal/x/y", mod + "/a/b/" + tablesDir, true},
		{"at the module root", mod + "/internal/x", mod + "/" + tablesDir, true},
		{"internal below internal", mod + "/a/internal/b/internal/c", mod + "/a/internal/b/" + tablesDir, false},
		{"another module's", "other.com/x/internal/y", "", false},
		{"not internal", mod + "/a/x", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home, ok := tableHome(tt.path, mod)
			if ok != tt.ok || ok && home != tt.home {
				t.Errorf("tableHome(%q) = %q, %v; want %q, %v", tt.path, home, ok, tt.home, tt.ok)
			}
		})
	}
}

// TestSecondProjectReusesDependencyTables: a project with the same
// dependencies as one built before makes no table for them (they are
// cached table modules), only for its own native packages.
func TestSecondProjectReusesDependencyTables(t *testing.T) {
	if testing.Short() {
		t.Skip("builds native workers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	build := func(comment string) []string {
		root := t.TempDir()
		if err := evaltest.Write(root, trestleRoot(t)); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(filepath.Join(root, "go.mod"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("\n// " + comment + "\n") // a worker key of its own
		f.Close()
		o := Options{Root: root, Module: evaltest.Module, CacheDir: evaltest.CacheDir()}
		plan, err := MakePlan(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range plan.Packages {
			if p.OnImport() { // linked for an input that imports them: here, all
				o.Link = append(o.Link, p.Path)
			}
		}
		var made []string
		res, err := Build(ctx, o, plan, func(e Event) {
			if p, ok := strings.CutPrefix(e.Message, "symbol table "); ok && e.Total > 0 && e.Total < 100 {
				made = append(made, p)
			}
		})
		if err != nil || res.Cached {
			t.Fatalf("build: %v, cached %v", err, res.Cached)
		}
		return made
	}
	build("first " + strconv.FormatInt(time.Now().UnixNano(), 36))
	made := build("second " + strconv.FormatInt(time.Now().UnixNano(), 36))
	for _, p := range made {
		if !strings.HasPrefix(p, evaltest.Module+"/") {
			t.Errorf("the second project made the table of %s again; it should come from the cache (made %v)", p, made)
		}
	}
	if len(made) == 0 {
		t.Error("the second project made no table for its own native packages")
	}
}

// TestDropBadGroups: a compile problem in a table leaves just that table
// out: a file of an overlay group (its path as go build prints it,
// relative to the project) is removed, a cached table module is dropped
// from the build and kept in the cache.
func TestDropBadGroups(t *testing.T) {
	root, cache := t.TempDir(), t.TempDir()
	deps := &tableGroup{dir: filepath.Join(t.TempDir(), "deps"), dest: filepath.Join(root, workerDir, "deps")}
	cached := &tableGroup{module: tablesModulePrefix + "k", dir: filepath.Join(cache, "src", "tables", "k"), paths: []string{"example.com/dep"}, cached: true}
	other := &tableGroup{module: tablesModulePrefix + "o", dir: filepath.Join(cache, "src", "tables", "o"), paths: []string{"example.com/ok"}, cached: true}
	for _, d := range []string{deps.dir, cached.dir, other.dir} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(deps.dir, "example_com_m_bad.go"), []byte("package deps\n"), 0o644)
	os.WriteFile(filepath.Join(deps.dir, "example_com_m_good.go"), []byte("package deps\n"), 0o644)
	problems := []task.Problem{
		{Path: workerDir + "/deps/example_com_m_bad.go", Line: 3, Col: 1, Message: "undefined: m.Gone"},
		{Path: filepath.Join(cached.dir, "example_com_dep.go"), Line: 9, Col: 2, Message: "undefined: q.T"},
	}
	got := dropBadGroups(problems, []*tableGroup{deps, cached, other}, root)
	if want := []string{"example.com/dep", "example_com_m_bad"}; !slices.Equal(got, want) {
		t.Errorf("dropped %v, want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(deps.dir, "example_com_m_bad.go")); err == nil {
		t.Error("the bad overlay table is still there")
	}
	if _, err := os.Stat(filepath.Join(deps.dir, "example_com_m_good.go")); err != nil {
		t.Error("the good overlay table went too")
	}
	if !cached.dropped || other.dropped {
		t.Errorf("dropped: bad module %v, other module %v", cached.dropped, other.dropped)
	}
	if _, err := os.Stat(cached.dir); err != nil {
		t.Error("a cached table module must stay in the cache: it may compile in another project")
	}
}
