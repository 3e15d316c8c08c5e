package task

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/app/errdefs"
	"trestle/app/projconf"
	"trestle/internal/testfix"
)

// TestUntrustedProjectRunsNoTests is issue 20's default Test task: go test
// builds the project's tests and runs them (init functions, TestMain,
// tests: the project's own code), and in an untrusted project it ran
// without a word. The runner refuses it there, saying the person must
// trust the project; Build and Vet, which run none of the project's code,
// still run. Trusted, the tests run.
func TestUntrustedProjectRunsNoTests(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	marks := testfix.NewMarks(t)
	root := testfix.Project(t, map[string]string{
		"go.mod":          "module example.com/hostile\n\ngo 1.22\n",
		"pkg/pkg.go":      "package pkg\n\nfunc Two() int { return 2 }\n",
		"pkg/pkg_test.go": marks.TestCode("pkg"),
	})
	full, err := projconf.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	untrusted := full.Untrusted()
	rn := NewRunner(root)
	start := func(conf projconf.Config, name string) (*Run, error) {
		tk, _ := conf.Task(name)
		return rn.Start(context.Background(), tk, nil, projconf.Selection{}, nil)
	}
	wait := func(run *Run) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		if err := run.Wait(ctx); err != nil {
			t.Fatalf("%s did not end: %v", run.ID, err)
		}
		if run.State() != StatePassed {
			out, _ := run.Output(50)
			t.Fatalf("%s %v: %s\n%s", run.ID, run.Command(), run.State(), out)
		}
	}

	run, err := start(untrusted, "test")
	if !errors.Is(err, errdefs.ErrRefused) || !errors.Is(err, ErrUntrusted) || run != nil {
		t.Fatalf("go test in an untrusted project: run %v, err %v; want refused", run, err)
	}
	for _, want := range []string{"go test ./...", "runs the project's own code", "untrusted", "trust the project"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q: %v", want, err)
		}
	}
	for _, name := range []string{"build", "vet"} {
		run, err := start(untrusted, name)
		if err != nil {
			t.Fatalf("%s in an untrusted project: %v", name, err)
		}
		wait(run)
	}
	if left := marks.Left(); len(left) > 0 {
		t.Fatalf("the untrusted project's code ran: %v", left)
	}

	run, err = start(full, "test")
	if err != nil {
		t.Fatalf("go test in a trusted project: %v", err)
	}
	wait(run)
	if left := marks.Left(); !slices.Equal(left, []string{"init", "test", "testmain"}) {
		t.Fatalf("trusted, go test left marks %v; want init, test and testmain", left)
	}
}
