package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/eval"
)

type evalParams struct {
	Code           string `json:"code" jsonschema:"Go to evaluate: statements, declarations and imports may be mixed; the value of a final expression is returned"`
	Selection      string `json:"selection,omitempty" jsonschema:"the .trestle.json selection whose evaluator to use (default: default)"`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"this call's deadline in seconds (default 10, at most 60); past it the evaluator is restarted and its state lost (a compiled input's run is killed; declarations are kept)"`
}

type evalResult struct {
	State      string   `json:"state"`
	Selection  string   `json:"selection"`
	Value      string   `json:"value,omitempty"`
	Type       string   `json:"type,omitempty"`
	Output     string   `json:"output,omitempty"`
	Error      string   `json:"error,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	Mode       string   `json:"mode,omitempty"` // interpreted, or compiled for input the interpreter cannot run
	DurationMS int64    `json:"duration_ms"`
}

func (s *Server) evalTool() server.ServerTool {
	tool := mcp.NewTool("trestle_eval",
		mcp.WithDescription("Evaluates Go in the project's evaluator, which can import the project's own packages and "+
			"its dependencies; state (variables, functions, imports) persists between calls. "+
			s.inMode("The person sees the code and result in the Eval pane and may be asked to allow it. ",
				"The project's policy may refuse it. ")+
			`e.g. {"code":"import \"example.com/demo/calc\"\ncalc.Add(2, 3)"}`),
		mcp.WithInputSchema[evalParams](),
		results[evalResult](),
		runsCode("Evaluate Go", true, false),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.eval)}
}

func (s *Server) eval(ctx context.Context, p evalParams) *mcp.CallToolResult {
	if strings.TrimSpace(p.Code) == "" {
		return fail(stateProblem, "code is empty; pass Go to evaluate, e.g. {\"code\":\"1+1\"}")
	}
	if p.TimeoutSeconds < 0 || p.TimeoutSeconds > int(eval.MaxTimeout/time.Second) {
		return fail(stateProblem, "timeout_seconds %d is outside 1..%d", p.TimeoutSeconds, int(eval.MaxTimeout/time.Second))
	}
	conf, _ := s.config()
	sel, _ := conf.Selection(selectionOr(p.Selection))
	if err := s.permit(ctx, evalRequest(p.Code, selectionOr(p.Selection), sel)); err != nil {
		return failErr(err)
	}
	// A native worker build for the selection, if one runs during the call,
	// is reported as progress to a caller that asked for it.
	if prog := newProgress(ctx); prog.token != nil {
		name := selectionOr(p.Selection)
		var mu sync.Mutex
		over := false // no progress once the answer is on its way
		cancel := s.opts.Services.Eval.Subscribe(func(e eval.BuildEvent) {
			mu.Lock()
			defer mu.Unlock()
			if e.Selection == name && !over {
				prog.note("evaluator " + name + ": " + e.Describe())
			}
		})
		defer func() {
			cancel()
			mu.Lock()
			over = true
			mu.Unlock()
		}()
	}
	res, err := s.opts.Services.Eval.Eval(ctx, p.Selection, p.Code, time.Duration(p.TimeoutSeconds)*time.Second)
	if a := s.opts.Activity; a != nil {
		a.EvalDone(clientName(ctx), p.Selection, p.Code, res, err)
	}
	return evalAnswer(res, err)
}

// evalAnswer turns an evaluation into a tool result: an error in the code
// or from the evaluator is a problem (busy when it is occupied).
func evalAnswer(res eval.Result, err error) *mcp.CallToolResult {
	out := evalResult{State: stateDone, Selection: res.Selection, Value: res.Value, Type: res.Type,
		Output: res.Output, Error: res.Err, Notes: res.Notes, Mode: res.Mode, DurationMS: res.Duration.Milliseconds()}
	switch {
	case err != nil && (errors.Is(err, eval.ErrDeadline) || errors.Is(err, eval.ErrDied) || errors.Is(err, eval.ErrStopped)):
		return fail(stateProblem, "%v; the evaluator's state (variables, imports) was lost and the next call starts fresh", err)
	case err != nil:
		return failErr(err)
	case res.Err != "":
		out.State = stateProblem
		r := mcp.NewToolResultStructured(out, fmt.Sprintf("problem: %s%s%s\n%s", res.Err, modeSuffix(res.Mode), outputSuffix(res.Output), where(res)))
		r.IsError = true
		return r
	}
	return done(out, "%s", describeEval(res))
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
	b.WriteString("\n" + where(res))
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
