package workerbuild

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
)

// TestBuildErrorShortIsTheCause (issue 21): a failed link is said in one
// short line with the cause's last lines, never gcc's command line.
func TestBuildErrorShortIsTheCause(t *testing.T) {
	gcc := "/usr/bin/gcc -m64 -o $WORK/b001/exe/a.out -rdynamic -Wl,--compress-debug-sections=zlib " + strings.Repeat("/tmp/go-link-1/go.o ", 120)
	be := &BuildError{Output: strings.Join([]string{
		"example.com/m/trestle_eval_worker",
		"# example.com/m/trestle_eval_worker",
		"/usr/local/go/pkg/tool/linux_amd64/link: running gcc failed: exit status 1",
		gcc,
		"/usr/bin/ld: /tmp/go-link-1/go.o: in function `modernc.org/libc.Xsigaction':",
		"/root/go/pkg/mod/modernc.org/libc@v1.66.3/libc_linux.go:1234: undefined reference to `modernc.org/libc.X__libc_sigaction'",
		"collect2: error: ld returned 1 exit status",
	}, "\n")}
	s := be.Short()
	if strings.Contains(s, "\n") || len(s) > 320 || strings.Contains(s, "-rdynamic") || !strings.Contains(s, "undefined reference to `modernc.org/libc.X__libc_sigaction'") {
		t.Fatalf("Short() = %q", s)
	}
	groups := []*tableGroup{{module: "trestle.invalid/evaltables/x", paths: []string{"modernc.org/libc"}}}
	got := dropUnlinked(be.Output, groups)
	if len(got) != 1 || !strings.HasPrefix(got[0], "modernc.org/libc: its symbol table did not link") || !groups[0].dropped {
		t.Fatalf("dropUnlinked = %q, dropped %v", got, groups[0].dropped)
	}
}

// TestInterpretExcludesFromTheNativeSet (issue 21): a package that
// .trestle.json's "interpret" names is left out of the native set.
func TestInterpretExcludesFromTheNativeSet(t *testing.T) {
	root := t.TempDir()
	if err := evaltest.Write(root, trestleRoot(t)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plan, err := MakePlan(ctx, Options{Root: root, Module: evaltest.Module, Interpret: []string{"go.etcd.io/bbolt"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Packages {
		if p.Path == "go.etcd.io/bbolt" && (p.Mode != ModeInterpreted || !strings.Contains(p.Reason, ".trestle.json")) {
			t.Fatalf("bbolt: %s (%s), want interpreted because .trestle.json says so", p.Mode, p.Reason)
		}
	}
	if slices.Contains(plan.Native(), "go.etcd.io/bbolt") {
		t.Fatalf("bbolt is still native: %v", plan.Native())
	}
}

// TestWorkerDirAvoidsProjectFolders (issue 20): the generated folders are
// named so that none is a folder of the project.
func TestWorkerDirAvoidsProjectFolders(t *testing.T) {
	root := t.TempDir()
	if err := evaltest.Write(root, trestleRoot(t)); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{workerDir, "lib/" + tablesDir} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	plan, err := MakePlan(ctx, Options{Root: root, Module: evaltest.Module, Link: []string{evaltest.Module + "/lib/internal/fastsum"}})
	if err != nil {
		t.Fatal(err)
	}
	if plan.WorkerDir == workerDir {
		t.Fatalf("the worker's folder is the project's %s", workerDir)
	}
	for _, p := range plan.Packages {
		if p.home != "" {
			rel := strings.TrimPrefix(p.home, evaltest.Module+"/")
			if _, err := os.Stat(filepath.Join(root, rel)); err == nil {
				t.Fatalf("%s's table goes into the project's folder %s", p.Path, rel)
			}
		}
	}
}
