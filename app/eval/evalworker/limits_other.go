//go:build !linux

package evalworker

// applyLimits does nothing here: the memory limit and the subreaper are
// Linux features; the process group kill still applies.
func applyLimits(Options) []string { return nil }
