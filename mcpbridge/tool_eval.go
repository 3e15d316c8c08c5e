package mcpbridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
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
	out, err := s.agent.Eval(ctx, s.caller(ctx), agent.EvalInput{Code: p.Code, Selection: p.Selection,
		TimeoutSeconds: p.TimeoutSeconds, Replay: p.Replay})
	return s.evalAnswered(out, err)
}

// evalAnswered encodes an evaluation: a call refused or malformed before
// it ran is a plain failure, else the evaluation's fields with its state.
func (s *Server) evalAnswered(out agent.EvalOutput, err error) *mcp.CallToolResult {
	switch {
	case !out.Ran:
		return failErr(err)
	case out.ReplayOnly:
		last := out.Result
		res := evalResult{State: stateDone, Selection: last.Selection, Replayed: out.Replayed, Worker: workerOf(last), Mode: last.Mode}
		return done(res, "Replayed %d input(s) that defined state; the evaluator has that state again.\n%s", out.Replayed, where(last))
	}
	return withNotes(evalAnswer(out.Result, err, out.Replayed, out.Lost), out.Notes)
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
			out.Message += fmt.Sprintf("; lost: %s; call again with replay: true to evaluate them again", agent.NamedInputs(lost))
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
