package mcpbridge

import (
	"context"
	"strings"
	"testing"

	"trestle/app/permission"
	"trestle/app/services"
	"trestle/app/task"
)

// personRun starts the slow task as the person does (not through MCP) and
// stops it when the test ends.
func personRun(t *testing.T, sv services.Services) *task.Run {
	t.Helper()
	conf, err := sv.Config()
	if err != nil {
		t.Fatal(err)
	}
	slow, _ := conf.Task("slow")
	sel, _ := conf.Selection("default")
	run, err := sv.Tasks.Start(context.Background(), slow, nil, sel, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Stop(); run.Wait(context.Background()) })
	return run
}

// TestStopRunFollowsThePolicy is issue 20's leftover: trestle_stop
// {"what":"run"} stopped the person's run under --agent-policy deny, and
// under ask without asking. Stopping a run the caller did not start now
// passes the gate like starting one; an agent stops its own run without a
// second question, except under deny, which always wins.
func TestStopRunFollowsThePolicy(t *testing.T) {
	tests := []struct {
		name      string
		policy    string
		answer    permission.Decision
		own       bool // the agent started the run
		denyAfter bool // the person switches to deny once the run is going
		stopped   bool
		asks      int // questions about the stop
	}{
		{name: "deny: the person's run", policy: permission.PolicyDeny},
		{name: "ask, denied: the person's run", policy: permission.PolicyAsk, answer: permission.Deny, asks: 1},
		{name: "ask, allowed: the person's run", policy: permission.PolicyAsk, answer: permission.AllowOnce, stopped: true, asks: 1},
		{name: "allow: the person's run", policy: permission.PolicyAllow, stopped: true},
		{name: "ask: its own run", policy: permission.PolicyAsk, answer: permission.AllowOnce, own: true, stopped: true},
		{name: "deny after its own run began", policy: permission.PolicyAsk, answer: permission.AllowOnce, own: true, denyAfter: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ask := &recordingAsk{d: tt.answer}
			l, sv := gatedServices(t, trestleJSON, ask)
			sv.Gate.SetPolicy(tt.policy)
			a := dialAuth(t, l)
			a.initialize("agent-stop")
			var run *task.Run
			if tt.own {
				if res := a.call("run", "trestle_run", `{"task":"slow","wait_seconds":0}`); resState(res) != "done" {
					t.Fatalf("start the agent's run: %v", res)
				}
				run = sv.Tasks.Current()
				if run == nil {
					t.Fatal("the agent's run is not running")
				}
				t.Cleanup(func() { run.Stop(); run.Wait(context.Background()) })
			} else {
				run = personRun(t, sv)
			}
			before := len(ask.requests())
			if tt.denyAfter {
				sv.Gate.SetPolicy(permission.PolicyDeny)
			}
			res := a.call("stop", "trestle_stop", `{"what":"run"}`)
			want := map[bool]string{true: "done", false: "refused"}[tt.stopped]
			if resState(res) != want {
				t.Fatalf("trestle_stop: %v, want %s", res, want)
			}
			if got := run.State(); (got == task.StateStopped) != tt.stopped {
				t.Fatalf("run state %s after trestle_stop answered %s", got, want)
			}
			rs := ask.requests()[before:]
			if len(rs) != tt.asks {
				t.Fatalf("asked %d times about the stop, want %d: %+v", len(rs), tt.asks, rs)
			}
			for _, r := range rs {
				if r.Kind != permission.KindStop || !strings.Contains(r.Detail, "sleep 30") || r.Client != "agent-stop" {
					t.Errorf("the person was asked %+v; want a stop naming the command and the client", r)
				}
			}
		})
	}
}
