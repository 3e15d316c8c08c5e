package mcpbridge

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/changeset"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/workbench"

	"github.com/mark3labs/mcp-go/mcp"
)

// changeSetServer is a headless server with a change-set manager over a
// temp store, and a stdio client for it.
func changeSetServer(t *testing.T) (*Server, *changeset.Manager) {
	t.Helper()
	project := newTestProject(t)
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := changeset.NewManager(db, project)
	srv := NewServer(testAgent(project, nil, services.Services{ChangeSets: m}), quiet())
	return srv, m
}

func TestProposeAndFollowAChangeSet(t *testing.T) {
	srv, m := changeSetServer(t)
	ctx := context.Background()
	res := srv.propose(ctx, proposeParams{Title: "Say hello", Changes: []changeset.Change{
		{Action: "edit", Path: "main.go", Edits: []changeset.Edit{{OldText: `println("hi")`, NewText: `println("hello")`}}},
		{Action: "create", Path: "docs/new.md", Content: "# New\n"},
	}})
	sc := res.StructuredContent.(changeSetResult)
	if res.IsError || sc.ID == "" || sc.SetState != "pending" || len(sc.Files) != 2 || !strings.Contains(textOf(res), "reviews it with `trestle changes`") {
		t.Fatalf("propose: %q %+v", textOf(res), sc)
	}
	data, _ := os.ReadFile(filepath.Join(srv.agent.Project().Root, "main.go"))
	if strings.Contains(string(data), "hello") {
		t.Fatal("proposing wrote the file")
	}

	start := time.Now()
	res = srv.changeSet(ctx, changeSetParams{ID: sc.ID, WaitSeconds: 1})
	if got := res.StructuredContent.(changeSetResult); got.SetState != "pending" || time.Since(start) < 900*time.Millisecond {
		t.Fatalf("wait without a decision: %+v after %v", got, time.Since(start))
	}
	// The decision comes while the call waits: it answers then, not at its deadline.
	waiting, answered := make(chan struct{}), make(chan *mcp.CallToolResult, 1)
	start = time.Now()
	go func() { close(waiting); answered <- srv.changeSet(ctx, changeSetParams{ID: sc.ID, WaitSeconds: 10}) }()
	<-waiting
	m.Reject(sc.ID, "not now")
	res = <-answered
	if got := res.StructuredContent.(changeSetResult); got.SetState != "rejected" || got.Reason != "not now" || time.Since(start) > 5*time.Second {
		t.Fatalf("after reject: %+v after %v", got, time.Since(start))
	}
	if res := srv.withdraw(ctx, withdrawParams{ID: sc.ID}); !res.IsError {
		t.Fatal("withdrew a rejected change set")
	}
	res = srv.changeSets(ctx, changeSetsParams{State: "rejected"})
	if got := res.StructuredContent.(changeSetsResult); len(got.ChangeSets) != 1 {
		t.Fatalf("list: %+v", got)
	}
}

func TestProposeRefusesWithTheFileAndReason(t *testing.T) {
	srv, m := changeSetServer(t)
	tests := []struct {
		name    string
		changes []changeset.Change
		state   string
		want    string
	}{
		{"old_text missing", []changeset.Change{{Action: "edit", Path: "main.go",
			Edits: []changeset.Edit{{OldText: "func nothere(", NewText: "x"}}}}, "problem", "occurs 0 times in main.go"},
		{"outside", []changeset.Change{{Action: "create", Path: "../evil.go", Content: "x"}}, "refused", "outside"},
		{"create existing", []changeset.Change{{Action: "create", Path: "main.go", Content: "x"}}, "problem", "main.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := srv.propose(context.Background(), proposeParams{Title: "t", Changes: tt.changes})
			text := textOf(res)
			if !res.IsError || !strings.HasPrefix(text, tt.state+": ") || !strings.Contains(text, tt.want) {
				t.Fatalf("got %q, want %s mentioning %q", text, tt.state, tt.want)
			}
		})
	}
	if list, _ := m.List(""); len(list) != 0 {
		t.Fatalf("refused proposals were stored: %d", len(list))
	}
}

// TestChangeSetToolTellsEachOutcome is issue 15's "done" from the agent's
// side: it proposes a three-file change; the person accepts two hunks of
// one file and rejects its third, edits another file's proposal, rejects
// the third file with a reason, applies, reverts and undoes the revert;
// trestle_change_set tells the agent each outcome, in text and structured
// content.
func TestChangeSetToolTellsEachOutcome(t *testing.T) {
	srv, m := changeSetServer(t)
	ctx := context.Background()
	root := srv.agent.Project().Root
	long := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\no\np\nq\nr\n"
	if err := os.WriteFile(filepath.Join(root, "docs/long.txt"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	shout := strings.NewReplacer("a\n", "A\n", "j\n", "J\n", "r\n", "R\n").Replace(long)
	res := srv.propose(ctx, proposeParams{Title: "Three files", Changes: []changeset.Change{
		{Action: "replace", Path: "docs/long.txt", Content: shout},
		{Action: "edit", Path: "docs/readme.txt", Edits: []changeset.Edit{{OldText: "two", NewText: "2"}}},
		{Action: "replace", Path: "pkg/util.go", Content: "package util\n"},
	}})
	id := res.StructuredContent.(changeSetResult).ID
	if h := res.StructuredContent.(changeSetResult).Files[0].Hunks; len(h) != 3 || h[2].State != "pending" {
		t.Fatalf("proposed hunks: %+v", h)
	}
	if _, err := m.RejectSelection(id, changeset.Selection{"docs/long.txt": {3}}, "keep r lower-case"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.EditFile(id, "docs/readme.txt", "one\nTWO, said the person\nthree\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.RejectSelection(id, changeset.Selection{"pkg/util.go": nil}, "the package is pkg"); err != nil {
		t.Fatal(err)
	}
	read := workbench.Reader{Project: srv.agent.Project()}.Func(ctx)
	if _, err := m.ApplySelection(id, changeset.Selection{"docs/long.txt": {1, 2}, "docs/readme.txt": nil}, read, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Revert(id, read, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := m.UndoRevert(id, read, nil); err != nil {
		t.Fatal(err)
	}
	res = srv.changeSet(ctx, changeSetParams{ID: id})
	got, text := res.StructuredContent.(changeSetResult), textOf(res)
	long0, readme, util := got.Files[0], got.Files[1], got.Files[2]
	if got.SetState != "partly_applied" || got.CanApply || long0.State != "partly_applied" || long0.Reason != "keep r lower-case" ||
		long0.Hunks[0].State != "applied" || long0.Hunks[1].State != "applied" || long0.Hunks[2].State != "rejected" || long0.Hunks[2].OldStart != 15 {
		t.Fatalf("docs/long.txt: set %s, file %+v", got.SetState, long0)
	}
	if !readme.EditedByPerson || readme.State != "applied" || !strings.Contains(readme.PersonDiff, "-2\n+TWO, said the person\n") {
		t.Fatalf("docs/readme.txt: %+v", readme)
	}
	if util.State != "rejected" || util.Reason != "the package is pkg" {
		t.Fatalf("pkg/util.go: %+v", util)
	}
	var actions []string
	for _, h := range got.History {
		actions = append(actions, h.Action)
	}
	want := "proposed rejected edited by person rejected partially applied reverted revert undone"
	if strings.Join(actions, " ") != want {
		t.Fatalf("history %q, want %q", actions, want)
	}
	for _, w := range []string{"hunks: 1 applied, 2 applied, 3 rejected", "the person's reason: keep r lower-case",
		"replace pkg/util.go +1 -1: rejected (the person's reason: the package is pkg)",
		"The person changed your proposed docs/readme.txt", "+TWO, said the person", "History:", "person: revert undone"} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	data, _ := os.ReadFile(filepath.Join(root, "docs/long.txt"))
	if want := strings.NewReplacer("a\n", "A\n", "j\n", "J\n").Replace(long); string(data) != want {
		t.Fatalf("docs/long.txt on disk: %q, want %q", data, want)
	}
}
