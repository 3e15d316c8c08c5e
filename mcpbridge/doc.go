// Package mcpbridge is Trestle's Model Context Protocol side: the tool
// definitions and handlers, per-connection MCP sessions, the loopback
// listener a window runs, the --mcp stdio server and the --mcp-attach bridge.
//
// It is an adapter over app/agent, which does what agents ask (the
// permission gate, the window's activity record, who owns what): a tool
// handler decodes its arguments, calls one agent.Agent method with the
// calling session as an agent.Caller (Server.caller), and encodes the
// answer as text plus structured content. It holds no workbench logic of
// its own; what it adds is MCP's: schemas and annotations, states
// (errors' errdefs kinds become refused, busy, none, problem), progress
// notifications, sessions and transport.
//
// It reaches the UI only through workbench.Window (package app/workbench,
// which ui implements without importing mcpbridge), whose methods are
// bounded main-thread calls; it never imports Fyne. Nothing here writes to
// os.Stdout except through the writer a caller hands in: in --mcp and
// --mcp-attach modes stdout carries JSON-RPC and nothing else.
//
// Where things are: tools.go is the whole tool surface (toolsets, each tool
// declared read-only or write, and which toolsets each mode serves);
// tool.go the helpers every tool uses; tool_<name>.go one tool each.
// serve.go and dispatch.go serve one MCP session over any stream (a socket,
// or stdio for --mcp); listener.go, handshake.go and places.go are the
// window's loopback socket; attach.go is the --mcp-attach bridge.
//
// # Adding a tool
//
// Write the operation in app/agent first (see its package doc), then one
// file here, tool_<name>.go, with the typed arguments (field descriptions
// in jsonschema tags), the definition and the handler, as tool_files.go
// does:
//
//	type filesParams struct {
//		Under string `json:"under,omitempty" jsonschema:"folder to list (default: the whole project)"`
//	}
//
//	func (s *Server) filesTool() server.ServerTool {
//		tool := mcp.NewTool("trestle_files",
//			mcp.WithDescription(`Lists the project's files. e.g. {"under":"cmd"}`),
//			mcp.WithInputSchema[filesParams](),
//			results[filesResult](),
//			hints("List project files", true, false, true),
//		)
//		return server.ServerTool{Tool: tool, Handler: typed(s.files)}
//	}
//
//	func (s *Server) files(ctx context.Context, p filesParams) *mcp.CallToolResult {
//		files, truncated, err := s.agent.Files(ctx, p.Under, p.Glob, p.Limit)
//		if err != nil {
//			return failErr(err)
//		}
//		return done(filesResult{State: stateDone, Files: files, Truncated: truncated}, "%s", strings.Join(files, "\n"))
//	}
//
// and name it in its toolset in tools.go with read or write (the one list
// of the whole surface; the server refuses at startup a tool whose
// annotations contradict it); a toolset is served when the agent offers
// its operations (when(offers(agent.OpFiles))), and the mode (window or
// headless) is the agent's (agent.Windowed). Then regenerate the snapshots and
// docs/tools.md: UPDATE_TOOLSNAPS=true UPDATE_FUZZ_CORPUS=true go test -run
// 'TestToolSnapshots|TestToolsDoc|TestFuzzCorpus' ./mcpbridge, and name the
// tool in instructions.md when agents should learn a workflow with it.
package mcpbridge
