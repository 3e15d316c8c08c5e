// Package testfix holds what Trestle's tests share: new empty user
// folders for each test binary (RunIsolated, called by every TestMain),
// temporary projects, a hostile git repository (HostileGit) and the marks
// a hostile project's commands leave when they run (Marks), copies of
// real modules from the module cache (CopyModule, CopyLibrary,
// CopyBbolt), large generated texts for the line-diff tests, waits on a
// condition, background servers that stop with the test, and MCP
// tool-call helpers; testfix/testworker makes the test binary an
// evaluator worker.
//
// Only _test.go files import it. It imports nothing of Trestle's (so any
// package's own tests can use it without a cycle), never writes to
// os.Stdout, and never sleeps for synchronisation: Wait polls a condition
// under a deadline.
package testfix
