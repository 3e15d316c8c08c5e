package mcpbridge

import "github.com/mark3labs/mcp-go/server"

// tools is the server's tool surface as clients see it: each schema tidied
// for strict clients and each call's arguments checked against it.
func (s *Server) tools() []server.ServerTool {
	list := s.toolList()
	for i := range list {
		tidySchemas(&list[i].Tool)
		list[i] = checked(list[i])
	}
	return list
}

// toolList is Trestle's whole tool surface, in one place. The headless
// server has no window, so it gets the tools that do not touch the UI; tools
// whose service (evaluator, task runner) is missing are not offered.
func (s *Server) toolList() []server.ServerTool {
	sv := s.opts.Services
	if s.headless() {
		tools := []server.ServerTool{s.filesTool(), s.readTool(), s.searchTool()}
		if sv.Eval != nil {
			tools = append(tools, s.evalTool())
		}
		if sv.Tasks != nil {
			tools = append(tools, s.runTool(), s.runStatusTool())
		}
		if sv.Eval != nil || sv.Tasks != nil {
			tools = append(tools, s.stopTool(), s.tasksTool())
		}
		if sv.ChangeSets != nil {
			tools = append(tools, s.proposeTool(), s.changeSetTool())
		}
		return append(tools, s.goplsTools()...)
	}
	tools := []server.ServerTool{
		s.workbenchTool(),
		s.filesTool(),
		s.readTool(),
		s.searchTool(),
		s.selectionTool(),
		s.openTool(),
		s.notifyTool(),
	}
	if sv.Eval != nil {
		tools = append(tools, s.evalTool(), s.evalSelectionTool(), s.evaluatorRestartTool())
	}
	if sv.Tasks != nil {
		tools = append(tools, s.runTool(), s.runStatusTool())
	}
	if sv.Eval != nil && sv.Tasks != nil {
		tools = append(tools, s.stopTool(), s.tasksTool(), s.outputTool(), s.diagnosticsTool())
	}
	if sv.ChangeSets != nil {
		tools = append(tools, s.proposeTool(), s.changeSetsTool(), s.changeSetTool(), s.withdrawTool())
	}
	tools = append(tools, s.goplsTools()...)
	if s.opts.Stall != nil {
		tools = append(tools, s.stallTool())
	}
	if s.opts.ApplyAsPerson != nil {
		tools = append(tools, s.debugApplyTool())
	}
	return tools
}

// goplsTools are the Go intelligence tools, in both modes, when there is a
// language server (trestle_rename also needs change sets).
func (s *Server) goplsTools() []server.ServerTool {
	sv := s.opts.Services
	if sv.LSP == nil {
		return nil
	}
	tools := []server.ServerTool{s.symbolsTool(), s.definitionTool(), s.referencesTool(), s.packageAPITool()}
	if sv.ChangeSets != nil {
		tools = append(tools, s.renameTool())
	}
	return tools
}
