package task

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/app/projconf"
	"trestle/internal/testfix"
)

// goFixture writes a module with a package whose passing tests log forty
// lines, one whose test fails (beside a passing one that logs), and a
// subtest that fails, and returns its root.
func goFixture(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	root := t.TempDir()
	files := map[string]string{
		"go.mod":       "module example.com/fix\n\ngo 1.22\n",
		"logs/logs.go": "package logs\n\nfunc Two() int { return 2 }\n",
		"logs/logs_test.go": "package logs\n\nimport \"testing\"\n\nfunc TestLogs(t *testing.T) {\n" +
			"\tfor i := 0; i < 40; i++ {\n\t\tt.Logf(\"step %d of the log\", i)\n\t}\n\tif Two() != 2 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n",
		"fails/fails.go": "package fails\n\nfunc Add(a, b int) int { return a - b }\n",
		"fails/fails_test.go": "package fails\n\nimport \"testing\"\n\n" +
			"func TestChatty(t *testing.T) {\n\tt.Log(\"chatty but fine\")\n}\n\n" +
			"func TestAdd(t *testing.T) {\n\tt.Log(\"adding\")\n\tif got := Add(2, 2); got != 4 {\n\t\tt.Errorf(\"Add(2, 2) = %d, want 4\", got)\n\t}\n}\n\n" +
			"func TestTable(t *testing.T) {\n\tt.Run(\"ok\", func(t *testing.T) { t.Log(\"fine\") })\n" +
			"\tt.Run(\"bad\", func(t *testing.T) { t.Error(\"sub failed\") })\n}\n",
		"fails/more_test.go": "package fails\n\nimport \"testing\"\n\n" +
			"func TestMore(t *testing.T) {\n\tt.Logf(\"a log over %s\",\n\t\t\"two lines\")\n" +
			"\tcheck(t, 1)\n\tt.Fatalf(\"stop at %d\",\n\t\t3)\n}\n\n" +
			"func check(t *testing.T, n int) {\n\tt.Helper()\n\tt.Errorf(\"check %d\", n)\n}\n",
		"panics/panics.go": "package panics\n\nfunc At(s []int, i int) int {\n\treturn s[i]\n}\n",
		"panics/panics_test.go": "package panics\n\nimport \"testing\"\n\n" +
			"func TestAt(t *testing.T) {\n\tt.Log(\"looking\")\n\tif At([]int{1}, 3) != 1 {\n\t\tt.Fatal(\"no\")\n\t}\n}\n",
	}
	for name, text := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755)
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// runGo runs the task with args in root, checking on every output line
// that each problem found so far names a file of the project by its
// project-relative path.
func runGo(t *testing.T, root string, task projconf.Task, args ...string) *Run {
	t.Helper()
	var mu sync.Mutex
	var bad []string
	var run *Run
	started := make(chan struct{})
	run, err := NewRunner(root).Start(context.Background(), task, args, projconf.Selection{}, func(l Line) {
		<-started
		for _, p := range run.Problems() {
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p.Path))); err != nil {
				mu.Lock()
				bad = append(bad, fmt.Sprintf("after line %d %q: %s is not project-relative", l.N, l.Text, p.Path))
				mu.Unlock()
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	close(started)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := run.Wait(ctx); err != nil {
		t.Fatalf("go test did not end: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, b := range bad {
		t.Error(b)
	}
	return run
}

func problemList(run *Run) []string {
	var got []string
	for _, p := range run.Problems() {
		got = append(got, fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Message))
	}
	slices.Sort(got)
	return got
}

// TestGoTestProblemsAreOnlyFailures runs a real go test, with and without
// -v: t.Log lines are never problems, not even a failing test's own; the
// failures (t.Error, t.Fatal, a t.Helper's caller) are, with
// project-relative paths at every moment of the run; a test that panics
// is a problem where it panicked, not in the runtime or testing package.
func TestGoTestProblemsAreOnlyFailures(t *testing.T) {
	root := goFixture(t)
	goTest := projconf.Task{Name: "test", Command: []string{"go", "test", "./..."}}
	for _, verbose := range []bool{true, false} {
		t.Run(fmt.Sprintf("verbose=%v", verbose), func(t *testing.T) {
			var args []string
			if verbose {
				args = []string{"-v", "-count=1"}
			}
			run := runGo(t, root, goTest, args...)
			out, _ := run.Output(0)
			if run.State() != StateFailed || (verbose && !strings.Contains(out, "step 39 of the log")) {
				t.Fatalf("state %s, output:\n%s", run.State(), out)
			}
			got := problemList(run)
			want := []string{ // a failed test's t.Log lines stay output
				"fails/fails_test.go:12: Add(2, 2) = 0, want 4",
				"fails/fails_test.go:18: sub failed",
				"fails/more_test.go:8: check 1", // a helper's failure, at its caller
				"fails/more_test.go:9: stop at 3",
				"panics/panics.go:4: panic: runtime error: index out of range [3] with length 1", // where it panicked
			}
			if !slices.Equal(got, want) {
				t.Fatalf("problems\n%s\nwant\n%s\noutput:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), out)
			}
		})
	}
}

// TestGoTestPassingVerboseHasNoProblems is the case: a passing
// go test -v that logs forty lines has no problems.
func TestGoTestPassingVerboseHasNoProblems(t *testing.T) {
	root := goFixture(t)
	run := runGo(t, root, projconf.Task{Name: "test", Command: []string{"go", "test", "./..."}}, "-v", "-count=1", "./logs/")
	out, _ := run.Output(0)
	if run.State() != StatePassed || strings.Count(out, "of the log") != 40 || len(run.Problems()) != 0 {
		t.Fatalf("state %s, problems %v, output:\n%s", run.State(), run.Problems(), out)
	}
}

// TestBuildAndVetErrorsAreProblems: a build error and a vet finding are
// problems, project-relative.
func TestBuildAndVetErrorsAreProblems(t *testing.T) {
	root := goFixture(t)
	os.WriteFile(filepath.Join(root, "logs", "vet.go"), []byte("package logs\n\nimport \"fmt\"\n\nfunc V() { fmt.Printf(\"%d\\n\", \"x\") }\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "broken"), 0o755)
	os.WriteFile(filepath.Join(root, "broken", "b.go"), []byte("package broken\n\nfunc B() int { return undefinedName }\n"), 0o644)
	run := runGo(t, root, projconf.Task{Name: "vet", Command: []string{"go", "vet", "./..."}})
	got := strings.Join(problemList(run), "\n")
	if !strings.Contains(got, "broken/b.go:3: undefined: undefinedName") || !strings.Contains(got, "logs/vet.go:5: fmt.Printf format %d has arg") {
		out, _ := run.Output(0)
		t.Fatalf("problems:\n%s\noutput:\n%s", got, out)
	}
}

// TestArgsPackagesReplaceTheTasks: package patterns in args replace the
// task's ./..., so the run tests only what was asked (a real go test: the
// failing package is not run).
func TestArgsPackagesReplaceTheTasks(t *testing.T) {
	root := goFixture(t)
	goTest := projconf.Task{Name: "test", Command: []string{"go", "test", "./..."}}
	run := runGo(t, root, goTest, "-run", "TestLogs", "./logs/...")
	out, _ := run.Output(0)
	if got := strings.Join(run.Command(), " "); got != "go test -run TestLogs ./logs/..." {
		t.Fatalf("command %q", got)
	}
	if run.State() != StatePassed || strings.Contains(out, "fails") || !strings.Contains(out, "example.com/fix/logs") {
		t.Fatalf("state %s, output:\n%s", run.State(), out)
	}
}

func TestArgv(t *testing.T) {
	test := projconf.Task{Command: []string{"go", "test", "./..."}}
	tests := []struct {
		name string
		task projconf.Task
		args []string
		want string
	}{
		{"flags only keep the task's packages", test, []string{"-run", "TestX"}, "go test ./... -run TestX"},
		{"packages replace", test, []string{"-run", "TestX", "./app/..."}, "go test -run TestX ./app/..."},
		{"flag value is not a package", test, []string{"-run", "TestX/sub", "-count", "1"}, "go test ./... -run TestX/sub -count 1"},
		{"flag=value", test, []string{"-run=TestX", "./a"}, "go test -run=TestX ./a"},
		{"after -args is for the test binary", test, []string{"-args", "./x"}, "go test ./... -args ./x"},
		{"import path", test, []string{"example.com/m/pkg"}, "go test example.com/m/pkg"},
		{"task flags kept", projconf.Task{Command: []string{"go", "test", "-race", "./..."}}, []string{"./b"}, "go test -race ./b"},
		{"not a go command", projconf.Task{Command: []string{"make", "check"}}, []string{"./x"}, "make check ./x"},
		{"go run is not replaced", projconf.Task{Command: []string{"go", "run", "./cmd/x"}}, []string{"arg"}, "go run ./cmd/x arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(Argv(tt.task, tt.args), " "); got != tt.want {
				t.Fatalf("Argv = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRealModuleTestFailureProblems runs fsnotify's own TestEventString
// (a copy of the module) with Op.String broken and a t.Logf beside its
// t.Errorf("\nhave: ...\nwant: ..."): the failures are the problems, at
// the Errorf line with the have/want lines below as the message; the log
// line is output only.
func TestRealModuleTestFailureProblems(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	root := testfix.CopyModule(t, "github.com/fsnotify/fsnotify")
	edit := func(name, old, new string) {
		path := filepath.Join(root, name)
		data, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(data), old) {
			t.Fatalf("%s has no %q (err %v): the fixture needs updating for this fsnotify", name, old, err)
		}
		os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644)
	}
	edit("fsnotify.go", `b.WriteString("|CREATE")`, `b.WriteString("|MAKE")`)
	edit("fsnotify_test.go", "\t\t\thave := tt.in.String()\n", "\t\t\thave := tt.in.String()\n\t\t\tt.Logf(\"checking %v\", tt.in.Op)\n")
	data, _ := os.ReadFile(filepath.Join(root, "fsnotify_test.go"))
	logLine, errLine := 0, 0
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.Contains(l, `t.Logf("checking %v"`):
			logLine = i + 1
		case strings.Contains(l, `t.Errorf("\nhave: %q\nwant: %q"`):
			errLine = i + 1
		}
	}
	goTest := projconf.Task{Name: "test", Command: []string{"go", "test", "./..."}}
	for _, verbose := range []bool{true, false} {
		t.Run(fmt.Sprintf("verbose=%v", verbose), func(t *testing.T) {
			args := []string{"-count=1", "-run", "TestEventString", "."}
			if verbose {
				args = append([]string{"-v"}, args...)
			}
			run := runGo(t, root, goTest, args...)
			out, _ := run.Output(0)
			got := problemList(run)
			want := []string{ // the one case with Create in it fails
				fmt.Sprintf(`fsnotify_test.go:%d: have: "MAKE|CHMOD    \"/file\""`, errLine),
			}
			if run.State() != StateFailed || !strings.Contains(out, fmt.Sprintf("fsnotify_test.go:%d: checking", logLine)) || !slices.Equal(got, want) {
				t.Fatalf("state %s, problems\n%s\nwant\n%s\noutput:\n%s", run.State(), strings.Join(got, "\n"), strings.Join(want, "\n"), out)
			}
		})
	}
}
