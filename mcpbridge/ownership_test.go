package mcpbridge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/services"
	"trestle/app/store"
)

// ownedListener serves a project with change sets, an evaluator and a
// gate under policy over a real loopback listener.
func ownedListener(t *testing.T, policy string) (testListener, *changeset.Manager, *eval.Manager) {
	t.Helper()
	project := newTestProject(t)
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := changeset.NewManager(db, project)
	ev := eval.NewManager(eval.ManagerOptions{Root: project.Root, Module: project.Module, WorkerCommand: testWorkerCommand})
	t.Cleanup(ev.Close)
	sv := services.Services{ChangeSets: m, Eval: ev, Gate: permission.NewGate(policy, nil)}
	srv := NewServer(testAgent(project, &tabsWindow{}, sv), quiet())
	return serveListener(t, srv, nil), m, ev
}

// structured is a result's structured content.
func structured(res map[string]any) map[string]any {
	sc, _ := res["structuredContent"].(map[string]any)
	return sc
}

// TestAChangeSetBelongsToItsSession is issue 20's "agent identity is
// weak": agent B, even under the same client name as A, can read A's
// change set but not withdraw it; A can.
func TestAChangeSetBelongsToItsSession(t *testing.T) {
	l, m, _ := ownedListener(t, permission.PolicyAsk)
	a, b := dialAuth(t, l), dialAuth(t, l)
	a.initialize("agent")
	b.initialize("agent") // the name is the client's own choice: not an identity
	res := a.call("p", "trestle_change_set_propose",
		`{"title":"Say hello","changes":[{"action":"edit","path":"main.go","edits":[{"old_text":"hi","new_text":"hello"}]}]}`)
	id, _ := structured(res)["id"].(string)
	if resState(res) != "done" || id == "" {
		t.Fatalf("propose: %v", res)
	}
	if res := b.call("r", "trestle_change_set", fmt.Sprintf(`{"id":%q}`, id)); resState(res) != "done" {
		t.Fatalf("another agent cannot read the set: %v", res)
	}
	res = b.call("w", "trestle_change_set_withdraw", fmt.Sprintf(`{"id":%q}`, id))
	if resState(res) != "refused" || !strings.Contains(fmt.Sprint(res["content"]), "another") {
		t.Fatalf("another agent's withdraw: %v", res)
	}
	if cs, err := m.Get(id); err != nil || cs.State != changeset.StatePending {
		t.Fatalf("after another agent's withdraw the set is %q (%v), want pending", cs.State, err)
	}
	if res := a.call("w", "trestle_change_set_withdraw", fmt.Sprintf(`{"id":%q}`, id)); resState(res) != "done" {
		t.Fatalf("the proposer's withdraw: %v", res)
	}
	if cs, _ := m.Get(id); cs.State != changeset.StateWithdrawn {
		t.Fatalf("after the proposer's withdraw the set is %q", cs.State)
	}
}

// TestWaitingCapIsPerSession: the cap on the sets one client has waiting
// counts per session, not per the name a client gives itself: a second
// session under the same name still has its places, and a session that
// renames itself does not get more.
func TestWaitingCapIsPerSession(t *testing.T) {
	l, _, _ := ownedListener(t, permission.PolicyAsk)
	a, b := dialAuth(t, l), dialAuth(t, l)
	a.initialize("agent")
	b.initialize("agent")
	propose := func(rc *rawConn, i int) map[string]any {
		return rc.call(fmt.Sprint("p", i), "trestle_change_set_propose",
			fmt.Sprintf(`{"title":"note %d","changes":[{"action":"create","path":"notes/%d.txt","content":"%d\n"}]}`, i, i, i))
	}
	for i := range changeset.MaxPendingPerClient {
		if res := propose(a, i); resState(res) != "done" {
			t.Fatalf("proposal %d: %v", i, res)
		}
	}
	if res := propose(a, 100); resState(res) != "refused" || !strings.Contains(fmt.Sprint(res["content"]), "this session") {
		t.Fatalf("past the cap: %v", res)
	}
	if res := propose(b, 200); resState(res) != "done" {
		t.Fatalf("another session under the same name was refused: %v", res)
	}
}

// TestEvaluatorRestartFollowsThePolicy: under deny an agent's
// trestle_evaluator_restart, and its trestle_stop of the person's running
// evaluation, are refused, and the person's evaluator keeps its state.
func TestEvaluatorRestartFollowsThePolicy(t *testing.T) {
	l, _, ev := ownedListener(t, permission.PolicyDeny)
	ctx := context.Background()
	if r, err := ev.Eval(ctx, "", "answer := 41", time.Minute); err != nil || r.Err != "" {
		t.Fatalf("the person's evaluation: %v %+v", err, r)
	}
	a := dialAuth(t, l)
	a.initialize("agent")
	if res := a.call("x", "trestle_evaluator_restart", `{}`); resState(res) != "refused" {
		t.Fatalf("restart under deny: %v", res)
	}
	r, err := ev.Eval(ctx, "", "answer + 1", time.Minute)
	if err != nil || r.Value != "42" {
		t.Fatalf("the person's state after the agent's restart: %v %+v", err, r)
	}

	marker := filepath.Join(t.TempDir(), "running")
	running := make(chan eval.Result, 1)
	go func() {
		r, _ := ev.Eval(ctx, "", fmt.Sprintf("import (\"os\"; \"time\")\nos.WriteFile(%q, nil, 0o644)\ntime.Sleep(2 * time.Second)\nanswer + 2", marker), time.Minute)
		running <- r
	}()
	waitFor(t, 30*time.Second, "the person's evaluation to run", func() bool { _, err := os.Stat(marker); return err == nil })
	if res := a.call("s", "trestle_stop", `{"what":"eval"}`); resState(res) != "refused" {
		t.Fatalf("stop under deny: %v", res)
	}
	if r := <-running; r.Value != "43" {
		t.Fatalf("the person's evaluation after the agent's stop: %+v", r)
	}
}
