package mcpbridge

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/eval"
)

type evalParams struct {
	Code           string `json:"code,omitempty" jsonschema:"Go statements, declarations and imports, mixed; a final expression's value is returned (may be empty with replay)"`
	Selection      string `json:"selection,omitempty" jsonschema:"the .trestle.json selection (default: default)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"deadline in seconds (default 10, at most 60; with replay, per input); past it the evaluator restarts and its state is lost"`
	Replay         bool   `json:"replay,omitempty" jsonschema:"after a result with lost: true, first evaluate again the inputs that defined the lost state, then code if given"`
}

type evalResult struct {
	State      string      `json:"state"`
	Message    string      `json:"message,omitempty"` // why the call failed: the evaluator's error, or the code's
	Selection  string      `json:"selection"`
	Value      string      `json:"value,omitempty"`
	Type       string      `json:"type,omitempty"`
	Output     string      `json:"output,omitempty"`
	Notes      []string    `json:"notes,omitempty"`
	Mode       string      `json:"mode,omitempty"` // interpreted, or compiled for input the interpreter cannot run
	Worker     *evalWorker `json:"worker,omitempty"`
	Lost       bool        `json:"lost" jsonschema:"true when a deadline, stop or crash killed the evaluator during this call and its state was lost"`
	Replayable int         `json:"replayable,omitempty" jsonschema:"how many inputs a call with replay: true would evaluate again"`
	Replayed   int         `json:"replayed,omitempty" jsonschema:"how many inputs replay evaluated again before code"`
	DurationMS int64       `json:"duration_ms"`
}

// evalWorker says what ran an evaluation.
type evalWorker struct {
	Kind           string   `json:"kind" jsonschema:"native (the standard library and dependencies linked in, the project's own packages interpreted unless listed), interpreter (the fallback: everything interpreted, yaegi's go1.22 standard library) or compiled (run as a compiled program)"`
	Go             string   `json:"go,omitempty" jsonschema:"the standard library's version"`
	NativePackages []string `json:"native_packages,omitempty" jsonschema:"packages outside the standard library linked natively"`
}

func (s *Server) evalTool() server.ServerTool {
	tool := mcp.NewTool("trestle_eval",
		mcp.WithDescription("Evaluates Go that may import the project's packages and dependencies; state persists "+
			"between calls. "+
			s.inMode("The person sees it in the Eval pane and may be asked to allow it. ",
				"The project's policy may refuse it. ")+
			"lost: true means a deadline or crash killed the evaluator and its state: replay: true evaluates again "+
			"the inputs that defined it. "+
			`e.g. {"code":"import \"example.com/demo/calc\"\ncalc.Add(2, 3)"} or {"replay":true}`),
		mcp.WithInputSchema[evalParams](),
		results[evalResult](),
		runsCode("Evaluate Go", true, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.eval)}
}

func (s *Server) eval(ctx context.Context, p evalParams) *mcp.CallToolResult {
	if strings.TrimSpace(p.Code) == "" && !p.Replay {
		return fail(stateProblem, "code is empty; pass Go to evaluate, e.g. {\"code\":\"1+1\"}, or replay: true to redefine a lost state")
	}
	if p.TimeoutSeconds < 0 || p.TimeoutSeconds > int(eval.MaxTimeout/time.Second) {
		return fail(stateProblem, "timeout_seconds %d is outside 1..%d", p.TimeoutSeconds, int(eval.MaxTimeout/time.Second))
	}
	ev := s.opts.Services.Eval
	conf, _ := s.config()
	sel, _ := conf.Selection(selectionOr(p.Selection))
	var replay []string
	if p.Replay {
		replay = ev.Lost(p.Selection)
	}
	if len(replay) == 0 && strings.TrimSpace(p.Code) == "" {
		return fail(stateNone, "nothing to replay: no evaluator of selection %s lost state that it had not replayed", selectionOr(p.Selection))
	}
	// The person is shown everything that will run: the replayed inputs, then code.
	req := evalRequest(strings.Join(append(slices.Clone(replay), p.Code), "\n\n"), selectionOr(p.Selection), sel)
	req.Initialises = ev.Initialises(ctx, p.Selection, req.Detail)
	if err := s.permit(ctx, req); err != nil {
		return failErr(err)
	}
	defer s.evalProgress(ctx, selectionOr(p.Selection))()
	timeout := time.Duration(p.TimeoutSeconds) * time.Second
	replayed := 0
	if len(replay) > 0 {
		results, err := ev.ReplayExactly(ctx, p.Selection, replay, timeout, func(code string, res eval.Result, err error) {
			if a := s.opts.Activity; a != nil {
				a.EvalDone(clientName(ctx), p.Selection, code, res, err)
			}
		})
		replayed = len(results)
		if err != nil {
			res := eval.Result{Selection: selectionOr(p.Selection)}
			if n := len(results); n > 0 {
				res = results[n-1]
			}
			return evalAnswer(res, fmt.Errorf("%w; %d of %d inputs were replayed and the rest kept for another replay", err, max(replayed-1, 0), len(replay)), replayed, ev.Lost(p.Selection))
		}
		if strings.TrimSpace(p.Code) == "" {
			last := results[len(results)-1]
			out := evalResult{State: stateDone, Selection: last.Selection, Replayed: replayed, Worker: workerOf(last), Mode: last.Mode}
			return done(out, "Replayed %d input(s) that defined state; the evaluator has that state again.\n%s", replayed, where(last))
		}
	}
	res, err := ev.Eval(ctx, p.Selection, p.Code, timeout)
	if a := s.opts.Activity; a != nil {
		a.EvalDone(clientName(ctx), p.Selection, p.Code, res, err)
	}
	lost := ev.Lost(p.Selection)
	var earlier []string
	switch {
	case res.StateLost && ctx.Err() != nil: // cancelled: nobody reads this answer, the next one says it
	case res.StateLost: // this answer names what was lost
		s.losses.told(selectionOr(p.Selection), lost)
	default:
		earlier = s.losses.untold(selectionOr(p.Selection), lost)
	}
	answer := evalAnswer(res, err, replayed, lost)
	return withNote(withNote(answer, earlierLossNote(selectionOr(p.Selection), earlier)), withheldNote(conf, selectionOr(p.Selection)))
}

// lossesTold keeps, per selection, how many of the evaluator's lost inputs
// (eval.Manager.Lost, which only grows until a replay) an answer has named.
// An evaluation whose call was cancelled (by the agent, or its client's
// timeout) loses the state with no answer anyone reads, and a restart (by
// the person, or trestle_evaluator_restart) names nothing; the next
// evaluation's answer names what went. Safe for concurrent use.
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
		"call with replay: true to evaluate them again.", selection, plural(len(lost), "earlier input"), namedInputs(lost))
}

// maxNamedInputs is how many lost inputs a text names.
const maxNamedInputs = 5

// namedInputs names inputs by their first line, shortened: "`x := 41`,
// `import \"fmt\"` and 3 more".
func namedInputs(inputs []string) string {
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

// evalProgress reports a native worker build for the selection, if one
// runs during the call, as progress to a caller that asked for it. The
// returned func stops it.
func (s *Server) evalProgress(ctx context.Context, name string) (stop func()) {
	prog := newProgress(ctx)
	if prog.token == nil {
		return func() {}
	}
	var mu sync.Mutex
	over := false // no progress once the answer is on its way
	cancel := s.opts.Services.Eval.Subscribe(func(e eval.BuildEvent) {
		mu.Lock()
		defer mu.Unlock()
		if e.Selection == name && !over {
			prog.note("evaluator " + name + ": " + e.Describe())
		}
	})
	return func() {
		cancel()
		mu.Lock()
		over = true
		mu.Unlock()
	}
}

// evalAnswer turns an evaluation into a tool result: an error in the code
// or from the evaluator is a problem (busy when it is occupied). replayed
// is how many inputs a replay ran first; lost the inputs a replay would
// run now.
func evalAnswer(res eval.Result, err error, replayed int, lost []string) *mcp.CallToolResult {
	out := evalResult{State: stateDone, Selection: res.Selection, Value: res.Value, Type: res.Type,
		Output: res.Output, Message: res.Err, Notes: res.Notes, Mode: res.Mode, Worker: workerOf(res),
		Lost: res.StateLost, Replayable: len(lost), Replayed: replayed, DurationMS: res.Duration.Milliseconds()}
	switch {
	case err != nil && res.StateLost:
		out.State = stateProblem
		out.Message = fmt.Sprintf("%v; the evaluator's state (variables, imports) was lost and the next call starts fresh", err)
		if len(lost) > 0 {
			out.Message += fmt.Sprintf("; lost: %s; call again with replay: true to evaluate them again", namedInputs(lost))
		}
		return problem(out, out.Message+"\n"+workerLine(res))
	case err != nil:
		out.State, out.Message = stateOf(err), err.Error()
		return problem(out, err.Error())
	case res.Err != "":
		out.State = stateProblem
		return problem(out, fmt.Sprintf("%s%s%s\n%s", res.Err, modeSuffix(res.Mode), outputSuffix(res.Output), workerLine(res)))
	}
	return done(out, "%s", describeEval(res))
}

// problem is a failed evaluation with its evaluation fields: text starting
// with the state, isError.
func problem(out evalResult, text string) *mcp.CallToolResult {
	r := mcp.NewToolResultStructured(out, out.State+": "+text)
	r.IsError = true
	return r
}

// workerOf says what ran an evaluation, nil when nothing did.
func workerOf(res eval.Result) *evalWorker {
	switch {
	case res.Mode == eval.ModeCompiled:
		return &evalWorker{Kind: "compiled"}
	case strings.HasPrefix(res.Worker, "native "):
		return &evalWorker{Kind: "native", Go: strings.TrimPrefix(res.Worker, "native "), NativePackages: res.Native}
	case res.Worker == "interpreter":
		return &evalWorker{Kind: "interpreter", Go: "go1.22 (yaegi's)"}
	}
	return nil
}

// maxNamedPackages is how many native packages a result's text names (the
// structured content has them all).
const maxNamedPackages = 12

// workerLine names the worker in a result's text: "worker: native go1.26.8
// (linked natively besides the standard library: go.etcd.io/bbolt, ...)".
func workerLine(res eval.Result) string {
	w := workerOf(res)
	if w == nil {
		return where(res)
	}
	line := "worker: " + w.Kind
	if w.Go != "" {
		line += " " + w.Go
	}
	if n := len(w.NativePackages); n > 0 {
		shown := w.NativePackages[:min(n, maxNamedPackages)]
		line += " (linked natively besides the standard library: " + strings.Join(shown, ", ")
		if n > len(shown) {
			line += fmt.Sprintf(" and %d more", n-len(shown))
		}
		line += ")"
	}
	return line + " " + where(res)
}

func describeEval(res eval.Result) string {
	var b strings.Builder
	if res.Output != "" {
		fmt.Fprintf(&b, "output:\n%s", res.Output)
		if !strings.HasSuffix(res.Output, "\n") {
			b.WriteByte('\n')
		}
	}
	if res.Value != "" {
		fmt.Fprintf(&b, "= %s (%s)", res.Value, res.Type)
	} else if b.Len() == 0 {
		b.WriteString("ok (no value)")
	}
	b.WriteString(modeSuffix(res.Mode))
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "\nnote: %s", n)
	}
	b.WriteString("\n" + workerLine(res))
	return b.String()
}

// where is the last line of an evaluation's text: its selection and how it
// ran ("(selection default, interpreted)").
func where(res eval.Result) string {
	if res.Mode == "" {
		return fmt.Sprintf("(selection %s)", res.Selection)
	}
	return fmt.Sprintf("(selection %s, %s)", res.Selection, res.Mode)
}

// modeSuffix marks a compiled evaluation, whose state is apart from the interpreter's.
func modeSuffix(mode string) string {
	if mode == eval.ModeCompiled {
		return " [compiled]"
	}
	return ""
}

func outputSuffix(out string) string {
	if out == "" {
		return ""
	}
	return "\noutput before the error:\n" + out
}
