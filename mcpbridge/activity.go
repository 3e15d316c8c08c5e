package mcpbridge

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/task"
	"trestle/app/trust"

	"github.com/mark3labs/mcp-go/mcp"
)

// beforeRun asks the window, when it guards runs, to deal with unsaved
// editors before a run of command; a non-nil result is the failed call.
func (s *Server) beforeRun(ctx context.Context, command string) (string, *mcp.CallToolResult) {
	note, err := s.agent.BeforeRun(ctx, s.caller(ctx), command)
	if err != nil {
		return "", failErr(err)
	}
	return note, nil
}

// permit asks the gate whether the calling client may go ahead with req,
// which names everything that decides what runs.
func (s *Server) permit(ctx context.Context, req permission.Request) error {
	return s.agent.Permit(ctx, s.caller(ctx), req)
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
