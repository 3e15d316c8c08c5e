//go:build !trestle_testhooks

package mcpbridge

// testHookSets is empty: the test-only toolsets are built only with -tags
// trestle_testhooks (tools_testhooks.go).
var testHookSets []string

func (s *Server) testHookToolsets() []*toolset { return nil }
