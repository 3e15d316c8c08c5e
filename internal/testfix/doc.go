// Package testfix holds what Trestle's tests share: temporary projects,
// waits on a condition, background servers that stop with the test, the
// test binary as an evaluator worker, and MCP tool-call helpers.
//
// Only _test.go files import it. It imports nothing of Trestle's above
// app (so mcpbridge's and ui's own tests can use it without a cycle),
// never writes to os.Stdout, and never sleeps for synchronisation: Wait
// polls a condition under a deadline.
package testfix
