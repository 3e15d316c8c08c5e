package mcpbridge

import (
	"slices"
	"testing"

	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/task"
	"trestle/internal/testfix"
)

// TestAskNamesThePackagesAnEvaluationInitialises (issue 20): the person
// asked about an evaluation is told which of the project's packages it
// imports, directly or through one another (their init code runs); 1+1
// initialises none.
func TestAskNamesThePackagesAnEvaluationInitialises(t *testing.T) {
	project := newTestProject(t)
	testfix.WriteFiles(t, project.Root, map[string]string{
		"pkg/util.go":  "package pkg\n\nimport _ \"example.com/demo/pkg/sub\"\n",
		"pkg/sub/s.go": "package sub\n\nfunc init() {}\n",
		"other/o.go":   "package other\n",
	})
	ask := &recordingAsk{d: permission.Deny}
	sv := services.Services{Tasks: task.NewRunner(project.Root), Gate: permission.NewGate(permission.PolicyAsk, ask.ask),
		Eval:   eval.NewManager(eval.ManagerOptions{Root: project.Root, Module: project.Module, WorkerCommand: testWorkerCommand}),
		Config: func() (projconf.Config, error) { return projconf.Load(project.Root) }}
	t.Cleanup(sv.Eval.Close)
	srv := NewServer(testAgent(project, nil, sv), quiet())
	a := dialAuth(t, serveListener(t, srv, nil))
	a.initialize("agent-init")
	a.call("1", "trestle_eval", `{"code":"1+1"}`)
	a.call("2", "trestle_eval", `{"code":"import \"example.com/demo/pkg\"\n1"}`)
	rs := ask.requests()
	if len(rs) != 2 {
		t.Fatalf("asked %d times, want 2", len(rs))
	}
	if len(rs[0].Initialises) != 0 {
		t.Errorf("1+1 initialises %v", rs[0].Initialises)
	}
	if want := []string{"example.com/demo/pkg", "example.com/demo/pkg/sub"}; !slices.Equal(rs[1].Initialises, want) {
		t.Errorf("the import initialises %v, want %v", rs[1].Initialises, want)
	}
}
