package mcpbridge

import (
	"fmt"

	"github.com/mark3labs/mcp-go/server"
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
			read(s.workbenchTool(), s.selectionTool()).
			write(s.openTool(), s.notifyTool()),
		newToolset("eval", "Go evaluation in the project's evaluator").when(hasEval).
			write(s.evalTool()),
		newToolset("evaluator", "the window's evaluator: the person's selection, restarts").when(hasEval).
			write(s.evalSelectionTool(), s.evaluatorRestartTool()),
		newToolset("tasks", "build, test, vet and the project's tasks").when(hasTasks).
			read(s.runStatusTool()).
			write(s.runTool()),
		newToolset("control", "what there is to run, and stopping it").when(hasEvalOrTasks).
			read(s.tasksTool()).
			write(s.stopTool()),
		newToolset("panes", "the window's Run and Eval panes").when(hasEvalAndTasks).
			read(s.outputTool()),
		newToolset("problems", "problems from the last run and gopls's live diagnostics").when(hasTasks).
			write(s.diagnosticsTool()),
		newToolset("change_sets", "proposing change sets and following one").when(hasChangeSets).
			read(s.changeSetTool()).
			write(s.proposeTool()),
		newToolset("change_set_review", "listing and withdrawing the window's change sets").when(hasChangeSets).
			read(s.changeSetsTool()).
			write(s.withdrawTool()),
		newToolset("go", "Go intelligence answered by gopls").when(hasLSP).
			read(s.symbolsTool(), s.definitionTool(), s.referencesTool(), s.packageAPITool()),
		newToolset("go_rename", "renames gopls computes, proposed as change sets").when(hasLSPAndChangeSets).
			write(s.renameTool()),
	}, s.testHookToolsets()...)
}

func hasEval(o Options) bool             { return o.Services.Eval != nil }
func hasTasks(o Options) bool            { return o.Services.Tasks != nil }
func hasEvalOrTasks(o Options) bool      { return hasEval(o) || hasTasks(o) }
func hasEvalAndTasks(o Options) bool     { return hasEval(o) && hasTasks(o) }
func hasChangeSets(o Options) bool       { return o.Services.ChangeSets != nil }
func hasLSP(o Options) bool              { return o.Services.LSP != nil }
func hasLSPAndChangeSets(o Options) bool { return hasLSP(o) && hasChangeSets(o) }

// tools is the server's tool surface as clients see it: the mode's
// toolsets, each tool checked against its declaration, its schema tidied
// for strict clients and each call's arguments checked against it. A tool
// that fails its check stops the server here, at startup.
func (s *Server) tools() []server.ServerTool {
	list, err := serve(s.toolsets(), modeToolsets[s.mode()], s.opts)
	if err != nil {
		panic(fmt.Sprintf("mcpbridge: the tool surface is broken: %v", err))
	}
	for i := range list {
		tidySchemas(&list[i].Tool)
		keepResultSchema(&list[i].Tool)
		list[i] = checked(list[i])
	}
	return list
}
