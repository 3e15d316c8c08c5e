package mcpbridge

import (
	"fmt"

	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
)

// A mode is how a server is reached: the window's listener, or stdio
// without a window (--mcp).
type mode string

const (
	windowMode   mode = "window"
	headlessMode mode = "headless"
)

// modeToolsets is which toolsets each mode serves: the window every one,
// the headless server those that need no window. Each mode's instructions
// name only the tools it serves (TestEachModeNamesOnlyItsTools). A binary
// built with -tags trestle_testhooks adds the test hooks to the window's.
var modeToolsets = map[mode][]string{
	windowMode: append([]string{"project", "workbench", "eval", "evaluator", "tasks", "control", "panes", "problems",
		"change_sets", "change_set_review", "go", "go_rename"}, testHookSets...),
	headlessMode: {"project", "eval", "tasks", "control", "problems", "change_sets", "go", "go_rename"},
}

// toolsets is Trestle's whole tool surface, in one place: every tool, the
// set it belongs to and whether it is read-only or writes.
func (s *Server) toolsets() []*toolset {
	return append([]*toolset{
		newToolset("project", "the project's files: list, read, search").
			read(s.filesTool(), s.readTool(), s.searchTool()),
		newToolset("workbench", "what the person sees in the window, and the window's editor").
			when(offers(agent.OpWorkbench, agent.OpSelection, agent.OpOpen, agent.OpNotify)).
			read(s.workbenchTool(), s.selectionTool()).
			write(s.openTool(), s.notifyTool()),
		newToolset("eval", "Go evaluation in the project's evaluator").
			when(offers(agent.OpEval)).
			write(s.evalTool()),
		newToolset("evaluator", "the window's evaluator: the person's selection, restarts").
			when(offers(agent.OpEvalSelection, agent.OpRestartEvaluator)).
			write(s.evalSelectionTool(), s.evaluatorRestartTool()),
		newToolset("tasks", "build, test, vet and the project's tasks").
			when(offers(agent.OpRun, agent.OpRunStatus)).
			read(s.runStatusTool()).
			write(s.runTool()),
		newToolset("control", "what there is to run, and stopping it").
			when(offersAny(agent.OpStopRun, agent.OpStopEval)).
			read(s.tasksTool()).
			write(s.stopTool()),
		newToolset("panes", "the window's Run and Eval panes").
			when(offers(agent.OpOutput)).
			read(s.outputTool()),
		newToolset("problems", "problems from the last run and gopls's live diagnostics").
			when(offers(agent.OpDiagnostics)).
			write(s.diagnosticsTool()),
		newToolset("change_sets", "proposing change sets and following one").
			when(offers(agent.OpPropose, agent.OpAwaitDecision)).
			read(s.changeSetTool()).
			write(s.proposeTool()),
		newToolset("change_set_review", "listing and withdrawing the window's change sets").
			when(offers(agent.OpChangeSets, agent.OpWithdraw)).
			read(s.changeSetsTool()).
			write(s.withdrawTool()),
		newToolset("go", "Go intelligence answered by gopls").
			when(offers(agent.OpSymbols, agent.OpDefinition, agent.OpReferences, agent.OpPackageAPI)).
			read(s.symbolsTool(), s.definitionTool(), s.referencesTool(), s.packageAPITool()),
		newToolset("go_rename", "renames gopls computes, proposed as change sets").
			when(offers(agent.OpRename)).
			write(s.renameTool()),
	}, s.testHookToolsets()...)
}

// offers is a toolset's need: the agent offers every one of ops.
func offers(ops ...agent.Op) func(*Server) bool {
	return func(s *Server) bool {
		for _, op := range ops {
			if !s.agent.Offers(op) {
				return false
			}
		}
		return true
	}
}

// offersAny is a toolset's need: the agent offers one of ops at least.
func offersAny(ops ...agent.Op) func(*Server) bool {
	return func(s *Server) bool {
		for _, op := range ops {
			if s.agent.Offers(op) {
				return true
			}
		}
		return false
	}
}

// tools is the server's tool surface as clients see it: the mode's
// toolsets, each tool checked against its declaration, its schema tidied
// for strict clients and each call's arguments checked against it. A tool
// that fails its check stops the server here, at startup.
func (s *Server) tools() []server.ServerTool {
	list, err := serve(s.toolsets(), modeToolsets[s.mode()], s)
	if err != nil {
		panic(fmt.Sprintf("mcpbridge: the tool surface is broken: %v", err))
	}
	for i := range list {
		tidySchemas(&list[i].Tool)
		list[i] = checked(list[i])
	}
	return list
}
