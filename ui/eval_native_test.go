package ui

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/app/eval"
	"trestle/app/eval/evaltest"
	"trestle/app/eval/workerbuild"
	"trestle/app/services"
	"trestle/internal/testfix"
)

func TestBuildStatusText(t *testing.T) {
	tests := []struct {
		name string
		e    workerbuild.Event
		want string
	}{
		{"tables", workerbuild.Event{Phase: workerbuild.PhaseTables, Done: 3, Total: 12}, "evaluator: building (symbol tables 3/12)"},
		{"compile", workerbuild.Event{Phase: workerbuild.PhaseCompile, Done: 40}, "evaluator: building (compiled 40 packages)"},
		{"ready", workerbuild.Event{Phase: workerbuild.PhaseReady}, "evaluator: native build ready"},
		{"failed", workerbuild.Event{Phase: workerbuild.PhaseFailed}, "evaluator: native build failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildStatusText(eval.BuildEvent{Selection: "default", Event: tt.e}); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEvalPackagesSayNativeOrInterpreted(t *testing.T) {
	w := newTestWindow(t)
	root := w.project.Root
	files := map[string]string{
		"go.mod":       "module example.com/p\n\ngo 1.22\n",
		"plain/p.go":   "package plain\n\nfunc F() int { return 1 }\n",
		"raw/raw.go":   "package raw\n\nimport \"unsafe\"\n\nvar N = unsafe.Sizeof(0)\n",
		"cmd/x/x.go":   "package main\n\nfunc main() {}\n",
		"go.sum":       "",
		"plain/doc.go": "// Package plain is plain.\npackage plain\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m := eval.NewManager(eval.ManagerOptions{Root: root, Module: "example.com/p"})
	t.Cleanup(m.Close)
	w.connectServices(services.Services{Eval: m})
	w.evalUI.showPackages()
	w.loading.Wait()
	got := w.panes.eval.transcript.text(0)
	for _, want := range []string{"interpreted example.com/p/plain", "native      example.com/p/raw: uses unsafe"} {
		if !strings.Contains(got, want) {
			t.Errorf("the Eval pane lacks %q:\n%s", want, got)
		}
	}
}

// TestPersonEvaluatesTheProjectNatively: in the Eval pane, the person
// imports the project's dependencies and calls them in the native worker
// (the evaltest fixture: x/sys/unix, bbolt), and the transcript shows the
// results.
func TestPersonEvaluatesTheProjectNatively(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	w := newTestWindow(t)
	trestle, _ := filepath.Abs("..")
	if err := evaltest.Write(w.project.Root, trestle); err != nil {
		t.Fatal(err)
	}
	m := eval.NewManager(eval.ManagerOptions{Root: w.project.Root, Module: evaltest.Module, WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: evaltest.CacheDir(), BuildWait: 10 * time.Minute})
	t.Cleanup(m.Close)
	w.connectServices(services.Services{Eval: m})
	w.loading.Wait()
	w.settings.EvalDeadline = 60
	db := filepath.Join(t.TempDir(), "pane.db")
	w.evalUI.byPerson("import \"golang.org/x/sys/unix\"\nunix.Getpagesize() > 0")
	w.loading.Wait()
	w.evalUI.byPerson("import bolt \"go.etcd.io/bbolt\"\ndb, err := bolt.Open(" + strconv.Quote(db) + ", 0o600, nil)\nerr == nil && db.Close() == nil")
	w.loading.Wait()
	got := w.panes.eval.transcript.text(0)
	if strings.Count(got, "= true (bool)") != 2 || !strings.Contains(got, "native go1.") {
		t.Fatalf("the transcript should show both calls answering true:\n%s", got)
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("bbolt did not create its file: %v", err)
	}
}

// TestStatusBarSaysWhereTheNativeBuildStands: after a real evaluator
// start, the window's status bar says in one short line what the native
// build came to, beside the evaluator's state: partial (a dependency's
// table did not link, as modernc.org/libc's does). (A failed build's line
// is TestFailedBuildIsOneLineInEveryAnswer's, in app/eval: its status
// message's clearing timer would touch the bar beside the build's events,
// which the test driver runs inline.)
func TestStatusBarSaysWhereTheNativeBuildStands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	mods := t.TempDir()
	testfix.WriteFiles(t, mods, map[string]string{
		"bad/go.mod": "module example.com/bad\n\ngo 1.22\n",
		"bad/bad.go": "package bad\n\nimport _ \"unsafe\"\n\n// Fine works.\nfunc Fine() int { return 41 + 1 }\n\n" +
			"// Broken refers to a function defined nowhere.\nfunc Broken() { sigaction() }\n\n" +
			"//go:linkname sigaction example.com/bad.x__libc_sigaction\nfunc sigaction()\n",
	})
	tests := []struct {
		name, gomod, input, want, end string
	}{
		{"partial", "module example.com/st\n\ngo 1.22\n\nrequire example.com/bad v0.0.0\n\nreplace example.com/bad => " + filepath.Join(mods, "bad") + "\n",
			"import \"example.com/bad\"\nbad.Fine()", "evaluator: idle · partial native build: example.com/bad", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newTestWindowWith(t, map[string]string{"go.mod": tt.gomod,
				"main.go": "package main\n\nimport \"example.com/bad\"\n\nfunc main() { println(bad.Fine()) }\n"})
			m := eval.NewManager(eval.ManagerOptions{Root: w.project.Root, Module: "example.com/st", WorkerCommand: testWorkerCommand,
				Native: true, CacheDir: evaltest.CacheDir(), BuildWait: 10 * time.Minute})
			t.Cleanup(m.Close)
			w.connectServices(services.Services{Eval: m})
			w.loading.Wait()
			// No status message clears itself while the build's events
			// reach the bar (the test driver runs both inline: a race).
			w.status.stop()
			w.evalUI.byPerson(tt.input)
			w.loading.Wait()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			m.WaitBuild(ctx, "") // the build's last event reached the window before it ends
			got := w.status.eval.Text
			if !strings.Contains(got, tt.want) || !strings.HasPrefix(got, "evaluator: ") || !strings.HasSuffix(got, tt.end) || strings.Contains(got, "\n") || len(got) > 200 {
				t.Fatalf("status bar %q, want one short line with %q (transcript:\n%s)", got, tt.want, w.panes.eval.transcript.text(0))
			}
		})
	}
}
