package task

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trestle/app/projconf"
)

// brokenGit makes root's .git folder one git rejects, as kind says.
func brokenGit(t *testing.T, root, kind string) {
	t.Helper()
	switch kind {
	case "half-made": // a .git with an empty config and nothing else
		if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, ".git", "config"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	case "bad config": // a real repository whose config was cut short
		cmd := exec.Command("git", "init", "-q")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		if err := os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core\n\trepositoryformatversion = 0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGoBuildInABrokenGitFolder: in a project whose .git folder git
// rejects, go build stops with "error obtaining VCS status" before it
// compiles anything. The Build task runs again with -buildvcs=false and
// says so, so the person sees the compile errors (or the success) and
// why the result is unstamped; go vet and go test never stamp and run as
// they are; an explicit -buildvcs=true is the person's choice and kept.
func TestGoBuildInABrokenGitFolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("GOFLAGS", "") // what a machine without a Go env file has (TestMain hides this one's)
	build := projconf.Task{Name: "build", Command: []string{"go", "build", "./..."}}
	vet := projconf.Task{Name: "vet", Command: []string{"go", "vet", "./..."}}
	brokenPkg := map[string]string{"broken/b.go": "package broken\n\nfunc B() int { return undefinedName }\n"}
	tests := []struct {
		name      string
		task      projconf.Task
		args      []string
		files     map[string]string
		state     State
		retried   bool
		problem   string // a problem the run must list
		vcsFailed bool   // the output ends with go's VCS error
	}{
		{name: "build passes", task: build, state: StatePassed, retried: true},
		{name: "build shows the type error", task: build, files: brokenPkg, state: StateFailed, retried: true,
			problem: "broken/b.go:3: undefined: undefinedName"},
		{name: "vet runs as it is", task: vet, files: brokenPkg, state: StateFailed,
			problem: "broken/b.go:3: undefined: undefinedName"},
		{name: "explicit -buildvcs=true is kept", task: build, args: []string{"-buildvcs=true", "./..."}, state: StateFailed, vcsFailed: true},
	}
	for _, kind := range []string{"half-made", "bad config"} {
		for _, tc := range tests {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				root := goFixture(t)
				brokenGit(t, root, kind)
				// go stamps only a main package's binary.
				os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
				for name, text := range tc.files {
					os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755)
					os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)
				}
				run := runGo(t, root, tc.task, tc.args...)
				out, _ := run.Output(0)
				if run.State() != tc.state {
					t.Fatalf("state %s, want %s; output:\n%s", run.State(), tc.state, out)
				}
				if got := strings.Contains(out, vcsRetryNote); got != tc.retried {
					t.Errorf("the note that it ran again without VCS stamping: shown %v, want %v; output:\n%s", got, tc.retried, out)
				}
				if tc.problem != "" && !slices.Contains(problemList(run), tc.problem) {
					t.Errorf("problems %v, want %q among them; output:\n%s", problemList(run), tc.problem, out)
				}
				if got := strings.Contains(out, vcsStatusError); got != (tc.retried || tc.vcsFailed) {
					t.Errorf("go's VCS error in the output: %v, want %v (it stays above the note); output:\n%s", got, tc.retried || tc.vcsFailed, out)
				}
			})
		}
	}
}

func TestWithBuildFlag(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"go build ./...", "go build -buildvcs=false ./..."},
		{"go build", "go build -buildvcs=false"},
		{"go -C sub build ./...", "go -C sub build -buildvcs=false ./..."},
		{"go -C=sub install .", "go -C=sub install -buildvcs=false ."},
	} {
		if got := strings.Join(withBuildFlag(strings.Fields(tc.in), "-buildvcs=false"), " "); got != tc.want {
			t.Errorf("withBuildFlag(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
