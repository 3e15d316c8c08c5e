package mcpbridge

import (
	"context"
	"strings"

	"trestle/app"
	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/projconf"
	"trestle/app/task"
)

// Activity hears of the evaluations and runs agents start, so the window
// shows them in plain view. The ui package implements it; the headless
// server has none. Methods are called from serving goroutines and must not
// block.
type Activity interface {
	EvalDone(client, selection, code string, res eval.Result, err error)
	RunStarted(client string, run *task.Run)
	RunLine(line task.Line)
	RunEnded(run *task.Run)
	ChangeSetProposed(cs changeset.ChangeSet)
}

// permit asks the gate whether the calling client may do kind with detail.
func (s *Server) permit(ctx context.Context, kind, detail string) error {
	g := s.opts.Services.Gate
	if g == nil {
		return nil
	}
	return g.Check(ctx, app.PermissionRequest{
		Client: clientName(ctx), Session: sessionID(ctx), Kind: kind, Detail: detail,
	})
}

// config is the project's configuration; a malformed file still gives the
// defaults, and the problem is returned for the caller to mention.
func (s *Server) config() (projconf.Config, error) {
	return s.opts.Services.ProjectConfig()
}

func commandLine(t projconf.Task, args []string) string {
	return strings.Join(task.Argv(t, args), " ")
}
