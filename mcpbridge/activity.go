package mcpbridge

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/task"
	"trestle/app/trust"

	"github.com/mark3labs/mcp-go/mcp"
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

// RunGuard is an Activity that keeps runs off text the person has not
// saved: before an agent's run the window saves its unsaved editors, or
// asks the person, as their setting says. BeforeRun returns what it did,
// for the run's result ("" for nothing), or an error that stops the run
// (refused, busy). It may wait for the person, bounded; called from
// serving goroutines.
type RunGuard interface {
	BeforeRun(ctx context.Context, client, command string) (note string, err error)
}

// beforeRun asks the window, when it guards runs, to deal with unsaved
// editors before a run of command; a non-nil result is the failed call.
func (s *Server) beforeRun(ctx context.Context, command string) (string, *mcp.CallToolResult) {
	g, ok := s.opts.Activity.(RunGuard)
	if !ok {
		return "", nil
	}
	note, err := g.BeforeRun(ctx, clientName(ctx), command)
	if err != nil {
		return "", failErr(err)
	}
	return note, nil
}

// permit asks the gate whether the calling client may go ahead with req,
// which names everything that decides what runs.
func (s *Server) permit(ctx context.Context, req permission.Request) error {
	g := s.opts.Services.Gate
	if g == nil {
		return nil
	}
	req.Client, req.Session = clientName(ctx), sessionID(ctx)
	return g.Check(ctx, req)
}

// runRequest is a run of t with args under the selection name: the command
// line, its folder, and the environment and tags the selection adds.
func runRequest(t projconf.Task, args []string, name string, sel projconf.Selection) permission.Request {
	dir := t.Dir
	if dir == "." {
		dir = ""
	}
	return permission.Request{Kind: "run", Detail: quotedCommand(append(append([]string{}, t.Command...), args...)), Selection: name,
		Env: envLines(sel.Env), Tags: sel.Tags, Dir: dir}
}

// evalRequest is an evaluation of code under the selection name: the
// environment and tags its evaluator has, and what it imports first.
func evalRequest(code, name string, sel projconf.Selection) permission.Request {
	return permission.Request{Kind: "evaluate", Detail: code, Selection: name,
		Env: envLines(sel.Env), Tags: sel.Tags, Preload: sel.Preload}
}

// withheldNote says what of the selection name an untrusted project did
// not use, or "" when nothing was withheld.
func withheldNote(conf projconf.Config, name string) string {
	if conf.Withheld == nil {
		return ""
	}
	sel, ok := conf.Withheld.Selections[name]
	if !ok {
		return ""
	}
	one := projconf.Withheld{Selections: map[string]projconf.Selection{name: sel}}
	return "Note: the project is untrusted, so .trestle.json's " + one.Summary() + " was not used; the person can " +
		trust.HowToTrust + "."
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
	return strings.Join(task.Argv(t, args), " ")
}

// quotedCommand is argv as a person reads a shell command: an argument with
// spaces or quotes is single-quoted, one with control characters (a
// newline that would start a false second line) Go-quoted, so what is one
// argument is never shown as two.
func quotedCommand(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case strings.IndexFunc(a, unicode.IsControl) >= 0:
			out[i] = strconv.Quote(a)
		case a == "" || strings.IndexFunc(a, needsQuote) >= 0:
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		default:
			out[i] = a
		}
	}
	return strings.Join(out, " ")
}

func needsQuote(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r))
}
