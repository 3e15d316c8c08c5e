package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"trestle/app/errdefs"
	"trestle/app/eval"
	"trestle/app/permission"
)

// EvalInput is an evaluation an agent asks for.
type EvalInput struct {
	Code      string // Go to evaluate; may be empty with Replay
	Selection string // the .trestle.json selection; "" is default
	// TimeoutSeconds is the deadline per input: 0 is eval's default, at
	// most eval.MaxTimeout.
	TimeoutSeconds int
	// Replay first evaluates again the inputs that defined state the
	// evaluator lost, then Code if given.
	Replay bool
}

// EvalOutput is what an evaluation did.
type EvalOutput struct {
	// Ran is whether anything was evaluated: false when the call was
	// refused or malformed before the evaluator saw it (the error says
	// why), true when Result is what the evaluator answered, even with an
	// error.
	Ran    bool
	Result eval.Result
	// Replayed is how many lost inputs were evaluated again first;
	// ReplayOnly that there was no code after them.
	Replayed   int
	ReplayOnly bool
	// Lost are the inputs a replay would evaluate again now.
	Lost []string
	// Notes for the caller, to put before the answer in this order: what
	// an untrusted project withheld, state lost unheard since the last
	// answer.
	Notes []string
}

// Eval evaluates in.Code in the selection's evaluator for who, after
// replaying lost state when asked: the gate is asked first (shown
// everything that will run), the window shows each input as it is
// evaluated, and the answer names state lost since an answer last said so.
// The error is a refused or malformed call (Ran false), or the
// evaluator's own error (Ran true, Result set).
func (a *Agent) Eval(ctx context.Context, who Caller, in EvalInput) (EvalOutput, error) {
	if strings.TrimSpace(in.Code) == "" && !in.Replay {
		return EvalOutput{}, errdefs.Errorf(errdefs.ErrInvalid, "code is empty; pass Go to evaluate, e.g. {\"code\":\"1+1\"}, or replay: true to redefine a lost state")
	}
	if in.TimeoutSeconds < 0 || in.TimeoutSeconds > int(eval.MaxTimeout/time.Second) {
		return EvalOutput{}, errdefs.Errorf(errdefs.ErrInvalid, "timeout_seconds %d is outside 1..%d", in.TimeoutSeconds, int(eval.MaxTimeout/time.Second))
	}
	timeout := time.Duration(in.TimeoutSeconds) * time.Second
	ev := a.cfg.Services.Eval
	name := SelectionOr(in.Selection)
	conf, _ := a.config()
	sel, _ := conf.Selection(name)
	var replay []string
	if in.Replay {
		replay = ev.Lost(in.Selection)
	}
	if len(replay) == 0 && strings.TrimSpace(in.Code) == "" {
		return EvalOutput{}, errdefs.Errorf(errdefs.ErrNotFound, "nothing to replay: no evaluator of selection %s lost state that it had not replayed", name)
	}
	// The person is shown everything that will run: the replayed inputs, then code.
	req := evalRequest(strings.Join(append(slices.Clone(replay), in.Code), "\n\n"), name, sel)
	req.Initialises = ev.Initialises(ctx, in.Selection, req.Detail)
	if err := a.Permit(ctx, who, req); err != nil {
		return EvalOutput{}, err
	}
	defer a.evalProgress(who, name)()
	out := EvalOutput{Ran: true}
	if len(replay) > 0 {
		results, err := ev.ReplayExactly(ctx, in.Selection, replay, timeout, func(code string, res eval.Result, err error) {
			a.evalDone(who, in.Selection, code, res, err)
		})
		out.Replayed = len(results)
		if err != nil {
			out.Result = eval.Result{Selection: name}
			if n := len(results); n > 0 {
				out.Result = results[n-1]
			}
			out.Lost = ev.Lost(in.Selection)
			return out, fmt.Errorf("%w; %d of %d inputs were replayed and the rest kept for another replay", err, max(out.Replayed-1, 0), len(replay))
		}
		if strings.TrimSpace(in.Code) == "" {
			out.Result, out.ReplayOnly = results[len(results)-1], true
			return out, nil
		}
	}
	res, err := ev.Eval(ctx, in.Selection, in.Code, timeout)
	a.evalDone(who, in.Selection, in.Code, res, err)
	out.Result, out.Lost = res, ev.Lost(in.Selection)
	var earlier []string
	switch {
	case res.StateLost && ctx.Err() != nil: // cancelled: nobody reads this answer, the next one says it
	case res.StateLost: // this answer names what was lost
		a.losses.told(name, out.Lost)
	default:
		earlier = a.losses.untold(name, out.Lost)
	}
	out.Notes = notes(withheldNote(conf, name), earlierLossNote(name, earlier))
	return out, err
}

// EvalSelection evaluates the Go the person has selected in the active
// editor, as Eval does with in.Code set to it; ErrNotFound when nothing is
// selected. It needs a window.
func (a *Agent) EvalSelection(ctx context.Context, who Caller, in EvalInput) (EvalOutput, error) {
	sel, err := a.cfg.Window.Selection(ctx)
	if err != nil {
		return EvalOutput{}, err
	}
	if sel.Text == "" {
		return EvalOutput{}, errdefs.Errorf(errdefs.ErrNotFound, "nothing is selected in %s; ask the person to select the code, or use trestle_eval", sel.Path)
	}
	in.Code, in.Replay = sel.Text, false
	return a.Eval(ctx, who, in)
}

// evalDone shows an agent's evaluation in the window, if there is one.
func (a *Agent) evalDone(who Caller, selection, code string, res eval.Result, err error) {
	if act := a.cfg.Activity; act != nil {
		act.EvalDone(who.Name(), selection, code, res, err)
	}
}

// RestartEvaluator restarts the selection's evaluator for who. It drops the
// person's evaluator state too, so it follows the policy as an evaluation
// does: under deny it is refused, under ask the person is asked.
func (a *Agent) RestartEvaluator(ctx context.Context, who Caller, selection string) error {
	name := SelectionOr(selection)
	req := permission.Request{Kind: permission.KindRestart, Selection: name,
		Detail: "restart the " + name + " evaluator: its variables, imports and state are lost"}
	if err := a.Permit(ctx, who, req); err != nil {
		return err
	}
	return a.cfg.Services.Eval.Restart(selection)
}

// StopEval stops the selection's running evaluation for who; the evaluator
// restarts. The evaluation may be the person's, whose state it loses, so
// the gate is asked as for a restart; nothing running, or no evaluator,
// is ErrNotFound.
func (a *Agent) StopEval(ctx context.Context, who Caller, selection string) error {
	if !a.Offers(OpStopEval) {
		return errdefs.Errorf(errdefs.ErrNotFound, "this server has no evaluator to stop")
	}
	name := SelectionOr(selection)
	req := permission.Request{Kind: permission.KindRestart, Selection: name,
		Detail: "stop the running evaluation of the " + name + " evaluator, which restarts: its variables, imports and state are lost"}
	if err := a.Permit(ctx, who, req); err != nil {
		return err
	}
	return a.cfg.Services.Eval.Stop(selection)
}

// notes are the non-empty ones of notes.
func notes(all ...string) []string {
	return slices.DeleteFunc(all, func(n string) bool { return n == "" })
}

// evalProgress tells who of a native worker build for the selection, if
// one runs during the call and who asked for progress. The returned func
// stops it.
func (a *Agent) evalProgress(who Caller, name string) (stop func()) {
	if who.Progress == nil {
		return func() {}
	}
	var mu sync.Mutex
	over := false // no progress once the answer is on its way
	cancel := a.cfg.Services.Eval.Subscribe(func(e eval.BuildEvent) {
		mu.Lock()
		defer mu.Unlock()
		if e.Selection == name && !over {
			who.Progress.Note("evaluator " + name + ": " + e.Describe())
		}
	})
	return func() {
		cancel()
		mu.Lock()
		over = true
		mu.Unlock()
	}
}

// lossesTold keeps, per selection, how many of the evaluator's lost inputs
// (eval.Manager.Lost, which only grows until a replay) an answer has named.
// An evaluation whose call was cancelled (by the agent, or its client's
// timeout) loses the state with no answer anyone reads, and a restart (by
// the person, or an agent) names nothing; the next evaluation's answer
// names what went. Safe for concurrent use.
type lossesTold struct {
	mu sync.Mutex
	n  map[string]int
}

// told records that an answer named every input in lost.
func (l *lossesTold) told(selection string, lost []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == nil {
		l.n = map[string]int{}
	}
	l.n[selection] = len(lost)
}

// untold returns the inputs of lost no answer has named yet, and marks
// them named.
func (l *lossesTold) untold(selection string, lost []string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n == nil {
		l.n = map[string]int{}
	}
	told := min(l.n[selection], len(lost)) // a replay shortens lost
	l.n[selection] = len(lost)
	return lost[told:]
}

// earlierLossNote tells the caller what an evaluation whose answer nobody
// read took with it, or "" when nothing was lost unheard.
func earlierLossNote(selection string, lost []string) string {
	if len(lost) == 0 {
		return ""
	}
	return fmt.Sprintf("Note: the evaluator of selection %s was restarted since an answer last said so (an evaluation cancelled "+
		"before it answered, or a restart), and the state of %s was lost: %s. This ran in a fresh evaluator; "+
		"call with replay: true to evaluate them again.", selection, Plural(len(lost), "earlier input"), NamedInputs(lost))
}

// maxNamedInputs is how many lost inputs a text names.
const maxNamedInputs = 5

// NamedInputs names inputs by their first line, shortened: "`x := 41`,
// `import \"fmt\"` and 3 more".
func NamedInputs(inputs []string) string {
	var names []string
	for _, in := range inputs[:min(len(inputs), maxNamedInputs)] {
		line, _, _ := strings.Cut(strings.TrimSpace(in), "\n")
		if r := []rune(line); len(r) > 60 {
			line = string(r[:60]) + "…"
		}
		names = append(names, "`"+line+"`")
	}
	text := strings.Join(names, ", ")
	if n := len(inputs) - len(names); n > 0 {
		text += fmt.Sprintf(" and %d more", n)
	}
	return text
}
