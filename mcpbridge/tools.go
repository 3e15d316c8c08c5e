package mcpbridge

import "github.com/mark3labs/mcp-go/server"

// tools is Trestle's whole tool surface, in one place. The headless server
// has no window, so it gets the tools that do not touch the UI.
func (s *Server) tools() []server.ServerTool {
	if s.opts.Window == nil {
		return []server.ServerTool{
			s.filesTool(),
			s.readTool(),
		}
	}
	tools := []server.ServerTool{
		s.workbenchTool(),
		s.filesTool(),
		s.readTool(),
		s.openTool(),
		s.notifyTool(),
	}
	if s.opts.Stall != nil {
		tools = append(tools, s.stallTool())
	}
	return tools
}
