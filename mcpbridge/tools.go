package mcpbridge

import "github.com/mark3labs/mcp-go/server"

// tools is Trestle's whole tool surface, in one place. The headless server
// has no window, so it gets the tools that do not touch the UI; tools whose
// service (evaluator, task runner) is missing are not offered.
func (s *Server) tools() []server.ServerTool {
	sv := s.opts.Services
	if s.opts.Window == nil {
		tools := []server.ServerTool{s.filesTool(), s.readTool(), s.searchTool()}
		if sv.Eval != nil {
			tools = append(tools, s.evalTool())
		}
		if sv.Tasks != nil {
			tools = append(tools, s.runTool())
		}
		return tools
	}
	tools := []server.ServerTool{
		s.workbenchTool(),
		s.filesTool(),
		s.readTool(),
		s.searchTool(),
		s.openTool(),
		s.notifyTool(),
	}
	if sv.Eval != nil {
		tools = append(tools, s.evalTool(), s.evaluatorRestartTool())
	}
	if sv.Tasks != nil {
		tools = append(tools, s.runTool(), s.runStatusTool())
	}
	if sv.Eval != nil && sv.Tasks != nil {
		tools = append(tools, s.stopTool(), s.tasksTool(), s.outputTool(), s.diagnosticsTool())
	}
	if s.opts.Stall != nil {
		tools = append(tools, s.stallTool())
	}
	return tools
}
