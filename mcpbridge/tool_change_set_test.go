package mcpbridge

import (
	"context"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/changeset"
	"trestle/app/services"
	"trestle/app/store"
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
	srv := NewServer(Options{Project: project, Version: "test", Logger: log.New(io.Discard, "", 0),
		Services: services.Services{ChangeSets: m}})
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
	data, _ := os.ReadFile(filepath.Join(srv.opts.Project.Root, "main.go"))
	if strings.Contains(string(data), "hello") {
		t.Fatal("proposing wrote the file")
	}

	start := time.Now()
	res = srv.changeSet(ctx, changeSetParams{ID: sc.ID, WaitSeconds: 1})
	if got := res.StructuredContent.(changeSetResult); got.SetState != "pending" || time.Since(start) < 900*time.Millisecond {
		t.Fatalf("wait without a decision: %+v after %v", got, time.Since(start))
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		m.Reject(sc.ID, "not now")
	}()
	res = srv.changeSet(ctx, changeSetParams{ID: sc.ID, WaitSeconds: 10})
	if got := res.StructuredContent.(changeSetResult); got.SetState != "rejected" || got.Reason != "not now" {
		t.Fatalf("after reject: %+v", got)
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
