package agent

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/project"
	"trestle/app/search"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/internal/testfix"
)

// These tests drive app/agent alone, with real app parts (a project in a
// temp dir, a bbolt change-set store, the task runner's processes, the
// permission gate) and no protocol: the window is the one part they stand
// in for, with seen (its Activity).

// seen is the window's Activity as these tests hear it.
type seen struct {
	mu       sync.Mutex
	proposed []string // "id state"
	started  []string // "client: run id"
	lines    []string
	evals    []string // "client: code = value"
}

func (s *seen) EvalDone(client, _, code string, res eval.Result, _ error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.evals = append(s.evals, client+": "+code+" = "+res.Value)
}
func (s *seen) RunStarted(client string, run *task.Run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = append(s.started, client+": "+run.ID)
}
func (s *seen) RunLine(l task.Line) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, l.Text)
}
func (s *seen) RunEnded(*task.Run) {}
func (s *seen) ChangeSetProposed(cs changeset.ChangeSet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.proposed = append(s.proposed, cs.ID+" "+cs.State)
}

func (s *seen) copy(list *[]string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(*list)
}

// heard is a caller's Progress as these tests hear it.
type heard struct {
	mu     sync.Mutex
	lines  []string
	closed bool
}

func (h *heard) Line(l task.Line) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.lines = append(h.lines, l.Text)
	}
}
func (h *heard) Note(string) {}
func (h *heard) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
}

// asked answers every permission request with d and keeps them.
type asked struct {
	d  permission.Decision
	mu sync.Mutex
	rs []permission.Request
}

func (a *asked) ask(_ context.Context, req permission.Request) (permission.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.rs = append(a.rs, req)
	return a.d, nil
}

func (a *asked) kinds() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, r := range a.rs {
		out = append(out, r.Client+" "+r.Kind)
	}
	return out
}

const trestleJSON = `{"tasks":{"echo":{"command":["sh","-c","echo one; echo two"]},"sleep":{"command":["sh","-c","echo started; sleep 60"]}}}`

// newAgent is an Agent over a small real project whose .trestle.json is
// loaded whole (as a trusted project's; Services.Trust is left nil, so the
// snapshot says untrusted), its change sets in a real store, its tasks run by the
// real runner and its requests put to a real gate under policy.
func newAgent(t *testing.T, policy string, ask *asked) (*Agent, *seen) {
	t.Helper()
	root := testfix.Project(t, map[string]string{
		"go.mod":          "module example.com/demo\n\ngo 1.22\n",
		"main.go":         "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"skip/x.go":       "package skip // println\n",
		".gitignore":      "skip/\n",
		".git/config":     "[core]\n",
		projconf.FileName: trestleJSON,
	})
	p, err := project.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	var askFn func(context.Context, permission.Request) (permission.Decision, error)
	if ask != nil {
		askFn = ask.ask
	}
	sv := services.Services{
		Tasks:      task.NewRunner(root),
		Gate:       permission.NewGate(policy, askFn),
		ChangeSets: changeset.NewManager(db, p),
		Config:     func() (projconf.Config, error) { return projconf.Load(root) },
	}
	act := &seen{}
	return New(Config{Project: p, Services: sv, Activity: act}), act
}

var (
	alice = Caller{Client: "alice", Session: "conn-1", Owner: "owner-a"}
	bob   = Caller{Client: "bob", Session: "conn-2", Owner: "owner-b"}
)

// TestProposeWithdrawAndAwait: a proposal is stored against the text
// agents read and shown to the person; one that does not fit is a problem
// with nothing stored; only its proposer withdraws it; a wait ends with
// the person's decision, or busy when the caller gives up.
func TestProposeWithdrawAndAwait(t *testing.T) {
	a, act := newAgent(t, permission.PolicyAllow, nil)
	ctx := context.Background()
	edit := changeset.Change{Path: "main.go", Action: changeset.ActionEdit,
		Edits: []changeset.Edit{{OldText: `println("hi")`, NewText: `println("hello")`}}}

	_, err := a.Propose(ctx, alice, changeset.Proposal{Title: "stale", Changes: []changeset.Change{{Path: "main.go",
		Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: "not there", NewText: "x"}}}}})
	if !errors.Is(err, errdefs.ErrInvalid) || !strings.HasSuffix(err.Error(), "; nothing was stored") {
		t.Fatalf("a proposal that does not fit: %v", err)
	}

	cs, err := a.Propose(ctx, alice, changeset.Proposal{Title: "greet", Changes: []changeset.Change{edit}})
	if err != nil {
		t.Fatal(err)
	}
	if cs.Client != "alice" || !cs.Undecided() {
		t.Fatalf("proposed %+v", cs)
	}
	if _, err := a.Withdraw(ctx, bob, cs.ID); err == nil {
		t.Fatalf("bob withdrew alice's %s", cs.ID)
	}

	// The person rejects it while alice waits.
	go a.Services().ChangeSets.Reject(cs.ID, "not now") // before or during the wait: either must pass
	full, err := a.AwaitDecision(ctx, alice, cs.ID, 60)
	if err != nil || full.State != changeset.StateRejected || full.Reason != "not now" || len(full.History) == 0 {
		t.Fatalf("AwaitDecision = %s %q (%d history entries), %v; want rejected with the reason", full.State, full.Reason, len(full.History), err)
	}

	second, err := a.Propose(ctx, alice, changeset.Proposal{Title: "again", Changes: []changeset.Change{edit}})
	if err != nil {
		t.Fatal(err)
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := a.AwaitDecision(gone, alice, second.ID, 60); !errors.Is(err, errdefs.ErrBusy) {
		t.Fatalf("a caller that gave up: %v, want busy", err)
	}
	if _, err := a.AwaitDecision(ctx, alice, second.ID, MaxDecisionWait+1); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("a wait past the bound: %v", err)
	}
	if w, err := a.Withdraw(ctx, alice, second.ID); err != nil || w.State != changeset.StateWithdrawn {
		t.Fatalf("alice withdrawing her own: %s, %v", w.State, err)
	}
	want := []string{cs.ID + " pending", second.ID + " pending", second.ID + " withdrawn"}
	if got := act.copy(&act.proposed); !slices.Equal(got, want) {
		t.Errorf("the window was shown %q, want %q", got, want)
	}
}

// TestRunIsSeenAndOwned: a run streams to the window and to the caller's
// progress until its wait ends; its starter stops it without a second
// question, anyone else is asked.
func TestRunIsSeenAndOwned(t *testing.T) {
	ask := &asked{d: permission.AllowOnce}
	a, act := newAgent(t, permission.PolicyAsk, ask)
	ctx := context.Background()

	prog := &heard{}
	who := alice
	who.Progress = prog
	out, err := a.Run(ctx, who, RunInput{Task: "echo", WaitSeconds: 60})
	if err != nil {
		t.Fatal(err)
	}
	if out.Run.State() != task.StatePassed {
		t.Fatalf("echo: %s", out.Run.State())
	}
	testfix.Wait(t, 30*time.Second, "the window shows both lines", func() bool { return len(act.copy(&act.lines)) >= 2 })
	if !prog.closed || !slices.Equal(prog.lines, []string{"one", "two"}) {
		t.Errorf("the caller's progress heard %q (closed %v)", prog.lines, prog.closed)
	}
	if got, err := a.RunStatus(ctx, bob, "", 0); err != nil || got != out.Run {
		t.Errorf("RunStatus of the latest: %v, %v", got, err)
	}
	if _, err := a.RunStatus(ctx, bob, "run-99", 0); !errors.Is(err, errdefs.ErrNotFound) {
		t.Errorf("RunStatus of no run: %v", err)
	}

	// alice starts a long run and stops it herself: asked once, to start.
	long, err := a.Run(ctx, alice, RunInput{Task: "sleep", WaitSeconds: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.StopRun(ctx, alice); err != nil {
		t.Fatal(err)
	}
	<-long.Run.Done()
	// bob stops alice's next run: he is asked.
	if _, err := a.Run(ctx, alice, RunInput{Task: "sleep"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.StopRun(ctx, bob); err != nil {
		t.Fatal(err)
	}
	want := []string{"alice run", "alice run", "alice run", "bob stop"}
	if got := ask.kinds(); !slices.Equal(got, want) {
		t.Errorf("the person was asked %q, want %q", got, want)
	}
	if _, err := a.StopRun(ctx, bob); !errors.Is(err, errdefs.ErrNotFound) {
		t.Errorf("stopping with nothing running: %v", err)
	}
	if _, err := a.Run(ctx, alice, RunInput{Task: "nope"}); err == nil || !strings.Contains(err.Error(), `no task "nope"`) {
		t.Errorf("an unknown task: %v", err)
	}
	if got := act.copy(&act.started); len(got) != 3 || got[0] != "alice: "+out.Run.ID {
		t.Errorf("the window was told of runs %q", got)
	}
}

// TestDenyRefusesBeforeAnythingRuns: under deny, evaluations, runs and
// restarts are refused before any evaluator or process starts.
func TestDenyRefusesBeforeAnythingRuns(t *testing.T) {
	a, act := newAgent(t, permission.PolicyDeny, nil)
	ev := eval.NewManager(eval.ManagerOptions{Root: a.Project().Root, Module: a.Project().Module})
	t.Cleanup(ev.Close)
	a.cfg.Services.Eval = ev
	ctx := context.Background()
	out, err := a.Eval(ctx, alice, EvalInput{Code: "1+1"})
	if !errors.Is(err, errdefs.ErrRefused) || out.Ran {
		t.Errorf("Eval under deny: ran %v, %v", out.Ran, err)
	}
	if _, err := a.Run(ctx, alice, RunInput{Task: "echo"}); !errors.Is(err, errdefs.ErrRefused) {
		t.Errorf("Run under deny: %v", err)
	}
	if err := a.RestartEvaluator(ctx, alice, ""); !errors.Is(err, errdefs.ErrRefused) {
		t.Errorf("RestartEvaluator under deny: %v", err)
	}
	for _, w := range ev.Status() {
		if w.PID != 0 || w.Evaluations != 0 {
			t.Errorf("an evaluator started: %+v", w)
		}
	}
	if a.Services().Tasks.Last() != nil || len(act.copy(&act.evals)) != 0 {
		t.Errorf("something ran: last run %v, evaluations %q", a.Services().Tasks.Last(), act.copy(&act.evals))
	}
	if _, err := a.Eval(ctx, alice, EvalInput{}); !errors.Is(err, errdefs.ErrInvalid) {
		t.Errorf("Eval of nothing: %v", err)
	}
}

// TestReadAndSearchSeeTheProject: reads are confined and sliced; search
// skips git's metadata and what .gitignore ignores.
func TestReadAndSearchSeeTheProject(t *testing.T) {
	a, _ := newAgent(t, permission.PolicyAllow, nil)
	ctx := context.Background()
	out, err := a.Read(ctx, "main.go", 3, 4)
	if err != nil || out.Text != "func main() {\n\tprintln(\"hi\")\n" || out.Lines != 5 || out.StartLine != 3 || out.EndLine != 4 || out.Unsaved {
		t.Fatalf("Read = %+v, %v", out, err)
	}
	for name, want := range map[string]error{"": errdefs.ErrInvalid, "../x.go": errdefs.ErrOutside, ".git/config": errdefs.ErrRefused, "no.go": errdefs.ErrNotFound} {
		if _, err := a.Read(ctx, name, 0, 0); !errors.Is(err, want) {
			t.Errorf("Read(%q): %v, want %v", name, err, want)
		}
	}
	files, more, err := a.Files(ctx, "", "*.go", 0)
	if err != nil || more || !slices.Equal(files, []string{"main.go"}) {
		t.Errorf("Files = %q (more %v), %v", files, more, err)
	}
	res, err := a.Search(ctx, search.Query{Pattern: "println"})
	if err != nil || len(res.Matches) != 1 || res.Matches[0].Path != "main.go" {
		t.Fatalf("Search = %+v, %v; want main.go only", res.Matches, err)
	}
	if _, err := a.Search(ctx, search.Query{Pattern: "(", Regexp: true}); !errors.Is(err, errdefs.ErrInvalid) {
		t.Errorf("a bad regexp: %v", err)
	}
}
