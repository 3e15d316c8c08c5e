//go:build trestle_testhooks

package mcpbridge

// testHookSets are the window's test-only toolsets, served in a binary
// built with -tags trestle_testhooks (as the end-to-end tests build it)
// and never in the shipped one.
var testHookSets = []string{"test_stall", "test_apply"}

// testHookToolsets are the test-only tools: each is offered only when its
// Options hook is set (cmd/trestle sets them under TRESTLE_TEST_HOOKS=1).
func (s *Server) testHookToolsets() []*toolset {
	return []*toolset{
		newToolset("test_stall", "test hook: block the UI thread").when(func(s *Server) bool { return s.opts.Stall != nil }).
			write(s.stallTool()),
		newToolset("test_apply", "test hook: apply as the person").when(func(s *Server) bool { return s.opts.ApplyAsPerson != nil }).
			write(s.debugApplyTool()),
	}
}
