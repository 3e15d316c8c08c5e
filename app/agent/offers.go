package agent

import "slices"

// An Op names one operation of an Agent (its method's name), so that a
// protocol adapter can ask whether the agent offers it (Offers) and list
// only what it can serve: an operation that needs the window is not
// offered without one (--mcp), and one that needs a service (the
// evaluator, tasks, change sets, gopls) not without it.
type Op string

// The operations an adapter may offer. Each names an exported method of
// *Agent (TestEveryOpIsAMethod).
const (
	OpFiles            Op = "Files"
	OpRead             Op = "Read"
	OpSearch           Op = "Search"
	OpTasks            Op = "Tasks"
	OpWorkbench        Op = "Workbench"
	OpSelection        Op = "Selection"
	OpOpen             Op = "Open"
	OpOutput           Op = "Output"
	OpNotify           Op = "Notify"
	OpEval             Op = "Eval"
	OpEvalSelection    Op = "EvalSelection"
	OpRestartEvaluator Op = "RestartEvaluator"
	OpStopEval         Op = "StopEval"
	OpRun              Op = "Run"
	OpRunStatus        Op = "RunStatus"
	OpStopRun          Op = "StopRun"
	OpDiagnostics      Op = "Diagnostics"
	OpPropose          Op = "Propose"
	OpWithdraw         Op = "Withdraw"
	OpChangeSets       Op = "ChangeSets"
	OpAwaitDecision    Op = "AwaitDecision"
	OpSymbols          Op = "Symbols"
	OpDefinition       Op = "Definition"
	OpReferences       Op = "References"
	OpPackageAPI       Op = "PackageAPI"
	OpRename           Op = "Rename"
)

// need is a part of the workbench an operation cannot do without.
type need uint8

const (
	needWindow need = 1 << iota
	needEval
	needTasks
	needChangeSets
	needLSP
)

// opNeeds is what each operation needs; an operation with no entry needs
// only the project.
var opNeeds = map[Op]need{
	OpWorkbench:        needWindow,
	OpSelection:        needWindow,
	OpOpen:             needWindow,
	OpNotify:           needWindow,
	OpOutput:           needWindow | needEval | needTasks, // the Run and Eval panes
	OpEval:             needEval,
	OpEvalSelection:    needWindow | needEval,
	OpRestartEvaluator: needEval,
	OpStopEval:         needEval,
	OpRun:              needTasks,
	OpRunStatus:        needTasks,
	OpStopRun:          needTasks,
	OpDiagnostics:      needTasks,
	OpPropose:          needChangeSets,
	OpWithdraw:         needChangeSets,
	OpChangeSets:       needChangeSets,
	OpAwaitDecision:    needChangeSets,
	OpSymbols:          needLSP,
	OpDefinition:       needLSP,
	OpReferences:       needLSP,
	OpPackageAPI:       needLSP,
	OpRename:           needLSP | needChangeSets,
}

// allOps is every Op, in the order Offered lists them.
var allOps = []Op{OpFiles, OpRead, OpSearch, OpTasks, OpWorkbench, OpSelection, OpOpen, OpOutput, OpNotify,
	OpEval, OpEvalSelection, OpRestartEvaluator, OpStopEval, OpRun, OpRunStatus, OpStopRun, OpDiagnostics,
	OpPropose, OpWithdraw, OpChangeSets, OpAwaitDecision, OpSymbols, OpDefinition, OpReferences, OpPackageAPI, OpRename}

// has is what the agent was given.
func (a *Agent) has() need {
	var h need
	sv := a.cfg.Services
	for _, part := range []struct {
		there bool
		n     need
	}{{a.cfg.Window != nil, needWindow}, {sv.Eval != nil, needEval}, {sv.Tasks != nil, needTasks},
		{sv.ChangeSets != nil, needChangeSets}, {sv.LSP != nil, needLSP}} {
		if part.there {
			h |= part.n
		}
	}
	return h
}

// Offers reports whether the agent can do op: it has the window and the
// services op needs. An adapter serves only what is offered; calling an
// operation that is not offered is a bug of the adapter's.
func (a *Agent) Offers(op Op) bool {
	n := opNeeds[op]
	return a.has()&n == n && slices.Contains(allOps, op)
}

// Offered lists the operations the agent offers.
func (a *Agent) Offered() []Op {
	return slices.DeleteFunc(slices.Clone(allOps), func(op Op) bool { return !a.Offers(op) })
}

// Windowed reports whether the agent works on a window the person sees;
// false for the headless server (--mcp).
func (a *Agent) Windowed() bool { return a.cfg.Window != nil }
