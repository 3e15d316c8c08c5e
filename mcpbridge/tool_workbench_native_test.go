package mcpbridge

import (
	"strings"
	"testing"
	"time"

	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/internal/testfix"
)

// TestWorkbenchSaysWhereTheNativeBuildStands (issue 21): the evaluator's
// native-build line, which the status bar shows the person, reaches an
// agent too, in trestle_workbench's evaluators (structured and in the
// text), through a real MCP client. The selection's GOFLAGS are wrong, so
// the native build fails at once and cheaply.
func TestWorkbenchSaysWhereTheNativeBuildStands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a native build")
	}
	project := newTestProject(t)
	sv := services.Services{
		Eval: eval.NewManager(eval.ManagerOptions{Root: project.Root, Module: project.Module, WorkerCommand: testWorkerCommand,
			Selections: map[string]projconf.Selection{"default": {Env: map[string]string{"GOFLAGS": "-mod=nonsense"}}},
			Native:     true, CacheDir: t.TempDir(), BuildWait: 10 * time.Minute}),
		Gate:   permission.NewGate(permission.PolicyAllow, nil),
		Config: func() (projconf.Config, error) { return projconf.Load(project.Root) },
	}
	t.Cleanup(sv.Eval.Close)
	srv := NewServer(testAgent(project, &tabsWindow{}, sv), quiet())
	c := connectStdio(t, srv, "native-test")
	if res, _ := callTool(t, c, "trestle_eval", map[string]any{"code": "1+1"}); res.IsError {
		t.Fatalf("eval: %s", testfix.Text(res))
	}
	// The evaluation waited for the build (BuildWait), so it has failed by now.
	res, sc := callTool(t, c, "trestle_workbench", map[string]any{})
	if res.IsError {
		t.Fatalf("workbench: %s", testfix.Text(res))
	}
	evs, _ := sc["evaluators"].([]any)
	if len(evs) != 1 {
		t.Fatalf("evaluators %v, want one (structured %v)", sc["evaluators"], sc)
	}
	ev, _ := evs[0].(map[string]any)
	native, _ := ev["native"].(string)
	if !strings.HasPrefix(native, "native build failed: ") || !strings.Contains(native, "nonsense") || strings.Contains(native, "\n") {
		t.Fatalf("evaluator %v: want native saying the build failed and why", ev)
	}
	if text := testfix.Text(res); !strings.Contains(text, "Evaluator default: ") || !strings.Contains(text, native) {
		t.Fatalf("text does not carry the native line %q:\n%s", native, text)
	}
}
