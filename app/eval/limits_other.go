//go:build !linux

package eval

// totalMemory is unknown here: no default memory limit.
func totalMemory() int64 { return 0 }

// pidAlive cannot be told here: every owner counts as alive, so nothing
// is removed.
func pidAlive(int) bool { return true }

// ownedByUs cannot be told here; the pid check still applies.
func ownedByUs(string) bool { return true }

// killDescendants does nothing here: only the process group is killed.
func killDescendants(int) {}

// descendants cannot be listed here.
func descendants(int) []int { return nil }
