package mcpbridge

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
	"trestle/app/task"
)

type diagnosticsParams struct {
	Path    string `json:"path,omitempty" jsonschema:"only problems in this file or folder"`
	Refresh bool   `json:"refresh,omitempty" jsonschema:"run go vet first (on path's package, else ./...), in the Run pane"`
}

type diagnosticsResult struct {
	State    string         `json:"state"`
	RunID    string         `json:"run_id,omitempty"`
	Command  string         `json:"command,omitempty"`
	Problems []task.Problem `json:"problems"`
	Live     []liveProblem  `json:"live,omitempty"` // gopls's, as of now
}

func (s *Server) diagnosticsTool() server.ServerTool {
	tool := mcp.NewTool("trestle_diagnostics",
		mcp.WithDescription("Problems from the last build, vet or test run (refresh: run go vet first), and gopls's "+
			"live type errors and analyzer findings"+s.inMode(" (unsaved editor text included)", "")+". "+
			`e.g. {"path":"app/","refresh":true}`),
		mcp.WithInputSchema[diagnosticsParams](),
		results[diagnosticsResult](),
		runsCode("Problems", false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.diagnostics)}
}

func (s *Server) diagnostics(ctx context.Context, p diagnosticsParams) *mcp.CallToolResult {
	out, err := s.agent.Diagnostics(ctx, s.caller(ctx), p.Path, p.Refresh)
	if err != nil {
		return failErr(err)
	}
	live, why := liveOf(out)
	run := out.Run
	if run == nil && live == nil {
		return fail(stateNone, "nothing has run yet; pass refresh:true to run go vet%s", liveWhy(why))
	}
	if run == nil {
		res := diagnosticsResult{State: stateDone, Problems: []task.Problem{}, Live: live}
		return done(res, "No build, vet or test has run yet (refresh:true runs go vet).\n%s", describeLive(live, why, s.inMode("unsaved text included", "files on disk")))
	}
	res := diagnosticsResult{State: stateDone, RunID: run.ID, Command: agent.CommandLine(run.Task, run.Args), Problems: out.Problems, Live: live}
	return done(res, "%s%s", describeProblems(res, out.Filter, run.State(), run.ExitCode()), describeLive(live, why, s.inMode("unsaved text included", "files on disk")))
}

// describeProblems is the last run's problems under filter, each on its
// own line, the text ending in a newline so that gopls's part follows on
// a line of its own. A run still going, or one that failed without a
// problem placed in a file (a bad package pattern, a build that could
// not start), is not said to have found no problems.
func describeProblems(r diagnosticsResult, filter string, state task.State, exitCode int) string {
	in, where := "", "a file"
	if filter != "" {
		in, where = " in "+filter, filter
	}
	if len(r.Problems) == 0 {
		switch state {
		case task.StatePassed:
			return fmt.Sprintf("No problems%s from the last run, %s (%s).\n", in, r.RunID, r.Command)
		case task.StateRunning:
			return fmt.Sprintf("No problems%s yet from the last run, %s (%s): it is still running; "+
				"follow it with trestle_run_status {\"run_id\":%q,\"wait_seconds\":25}.\n", in, r.RunID, r.Command, r.RunID)
		case task.StateFailed:
			return fmt.Sprintf("The last run, %s (%s), failed (exit code %d) with no problem placed in %s: "+
				"read its output with trestle_run_status {\"run_id\":%q}.\n", r.RunID, r.Command, exitCode, where, r.RunID)
		default:
			return fmt.Sprintf("The last run, %s (%s), %s before it finished, with no problem placed in %s: "+
				"run it again for the problems.\n", r.RunID, r.Command, stateWords(state), where)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s from the last run, %s (%s):\n", plural(len(r.Problems), "problem"), in, r.RunID, r.Command)
	for _, p := range r.Problems {
		b.WriteString(problemLine(p) + "\n")
	}
	return b.String()
}

// problemLine is a problem as the compiler would print it.
func problemLine(p task.Problem) string {
	if p.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", p.Path, p.Line, p.Col, p.Message)
	}
	return fmt.Sprintf("%s:%d: %s", p.Path, p.Line, p.Message)
}

// stateWords says how a run that did not finish ended.
func stateWords(s task.State) string {
	if s == task.StateStopped {
		return "was stopped"
	}
	return string(s)
}
