package mcpbridge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/agent"
	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/task"
)

// guardActivity is a window's Activity that guards runs as the test says.
type guardActivity struct {
	note  string
	err   error
	asked []string // "client: command"
}

func (*guardActivity) EvalDone(string, string, string, eval.Result, error) {}
func (*guardActivity) RunStarted(string, *task.Run)                        {}
func (*guardActivity) RunLine(task.Line)                                   {}
func (*guardActivity) RunEnded(*task.Run)                                  {}
func (*guardActivity) ChangeSetProposed(changeset.ChangeSet)               {}
func (g *guardActivity) BeforeRun(_ context.Context, client, command string) (string, error) {
	g.asked = append(g.asked, client+": "+command)
	return g.note, g.err
}

// TestRunGuardSpeaksBeforeARun: in the window an agent's run first hears
// what became of the person's unsaved editors (saved, and the result says
// so), and a refusal stops the run before it starts.
func TestRunGuardSpeaksBeforeARun(t *testing.T) {
	for _, tt := range []struct {
		name      string
		guard     guardActivity
		wantState string
		want      string
		ran       bool
	}{
		{"saved", guardActivity{note: "Saved 1 unsaved file(s) before the run: main.go."}, "problem", "Saved 1 unsaved file(s) before the run: main.go.\nproblem: run-1", true},
		{"nothing unsaved", guardActivity{}, "problem", "problem: run-1", true},
		{"refused", guardActivity{err: fmt.Errorf("did not run: main.go has unsaved changes: %w", errdefs.ErrRefused)}, "refused", "main.go has unsaved changes", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			project := newTestProject(t)
			os.WriteFile(filepath.Join(project.Root, projconf.FileName), []byte(trestleJSON), 0o644)
			sv := services.Services{
				Tasks:  task.NewRunner(project.Root),
				Gate:   permission.NewGate(permission.PolicyAllow, nil),
				Config: func() (projconf.Config, error) { return projconf.Load(project.Root) },
			}
			g := tt.guard
			ag := agent.New(agent.Config{Project: project, Services: sv, Activity: &g}) // the guard goes to app/agent directly
			srv := NewServer(ag, quiet())
			c := connectStdio(t, srv, "guard-test")
			res, sc := callTool(t, c, "trestle_run", map[string]any{"task": "echo"})
			if sc["state"] != tt.wantState || !strings.Contains(textOf(res), tt.want) {
				t.Fatalf("state %v, text %q; want %s with %q", sc["state"], textOf(res), tt.wantState, tt.want)
			}
			if tt.guard.note != "" && !strings.HasPrefix(textOf(res), tt.guard.note) {
				t.Errorf("the note does not lead the result: %q", textOf(res))
			}
			if len(g.asked) != 1 || g.asked[0] != "guard-test: sh -c echo one; echo two; exit 3" {
				t.Errorf("the guard was asked %q", g.asked)
			}
			if ran := sv.Tasks.Last() != nil; ran != tt.ran {
				t.Errorf("the task ran: %v, want %v", ran, tt.ran)
			}
		})
	}
}
