//go:build !linux && !darwin

package project

import "os"

// versionOf reports false: this system's file info has no change time, so
// Sums remembers nothing (a restored modification time would go unseen).
func versionOf(os.FileInfo) (fileVersion, bool) { return fileVersion{}, false }
