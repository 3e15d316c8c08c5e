package agent

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
)

// Permit asks the permission gate whether who may go ahead with req, which
// names everything that decides what runs: nil when there is no gate or
// it allows, else an error wrapping errdefs.ErrRefused (or ErrBusy when
// the person was asked and did not answer in time).
func (a *Agent) Permit(ctx context.Context, who Caller, req permission.Request) error {
	g := a.cfg.Services.Gate
	if g == nil {
		return nil
	}
	req.Client, req.Session = who.Name(), who.Session
	return g.Check(ctx, req)
}

// SessionEnded drops what the person granted a session ("Allow for this
// session"): an adapter calls it when a session ends, and again when one
// begins, since a session id may come again (a restarted listener numbers
// its connections from the start) and a new client must never inherit an
// earlier one's grant.
func (a *Agent) SessionEnded(session string) {
	if g := a.cfg.Services.Gate; g != nil {
		g.Forget(session)
	}
}

// BeforeRun asks the window, when it guards runs (RunGuard), to deal with
// unsaved editors before who runs command: what it did, for the answer, or
// the error that stops the run.
func (a *Agent) BeforeRun(ctx context.Context, who Caller, command string) (note string, err error) {
	g, ok := a.cfg.Activity.(RunGuard)
	if !ok {
		return "", nil
	}
	return g.BeforeRun(ctx, who.Name(), command)
}

// runRequest is a run of t with args under the selection name: the command
// line, its folder, and the environment and tags the selection adds.
func runRequest(t projconf.Task, args []string, name string, sel projconf.Selection) permission.Request {
	dir := t.Dir
	if dir == "." {
		dir = ""
	}
	return permission.Request{Kind: "run", Detail: QuotedCommand(append(append([]string{}, t.Command...), args...)), Selection: name,
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

// SelectionOr is the selection name, or "default" for "".
func SelectionOr(name string) string {
	if name == "" {
		return "default"
	}
	return name
}

// CommandLine is the command a run of t with args runs, as one line.
func CommandLine(t projconf.Task, args []string) string {
	return strings.Join(task.Argv(t, args), " ")
}

// QuotedCommand is argv as a person reads a shell command: an argument with
// spaces or quotes is single-quoted, one with control characters (a
// newline that would start a false second line) Go-quoted, so what is one
// argument is never shown as two.
func QuotedCommand(argv []string) string {
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

// Plural is "1 file" or "3 files": a count and its noun as a person writes it.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
