package mcpbridge

import (
	"context"
	"sort"
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

// permit asks the gate whether the calling client may go ahead with req,
// which names everything that decides what runs.
func (s *Server) permit(ctx context.Context, req app.PermissionRequest) error {
	g := s.opts.Services.Gate
	if g == nil {
		return nil
	}
	req.Client, req.Session = clientName(ctx), sessionID(ctx)
	return g.Check(ctx, req)
}

// runRequest is a run of t with args under the selection name: the command
// line, its folder, and the environment and tags the selection adds.
func runRequest(t projconf.Task, args []string, name string, sel projconf.Selection) app.PermissionRequest {
	dir := t.Dir
	if dir == "." {
		dir = ""
	}
	return app.PermissionRequest{Kind: "run", Detail: commandLine(t, args), Selection: name,
		Env: envLines(sel.Env), Tags: sel.Tags, Dir: dir}
}

// evalRequest is an evaluation of code under the selection name: the
// environment and tags its evaluator has, and what it imports first.
func evalRequest(code, name string, sel projconf.Selection) app.PermissionRequest {
	return app.PermissionRequest{Kind: "evaluate", Detail: code, Selection: name,
		Env: envLines(sel.Env), Tags: sel.Tags, Preload: sel.Preload}
}

// envLines is env as sorted NAME=value lines.
func envLines(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// config is the project's configuration; a malformed file still gives the
// defaults, and the problem is returned for the caller to mention.
func (s *Server) config() (projconf.Config, error) {
	return s.opts.Services.ProjectConfig()
}

func commandLine(t projconf.Task, args []string) string {
	return strings.Join(append(append([]string{}, t.Command...), args...), " ")
}
