//go:build linux || darwin

package project

import (
	"os"
	"syscall"
)

// versionOf is the version of the file info describes, and whether the
// system gives what a version needs.
func versionOf(info os.FileInfo) (fileVersion, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileVersion{}, false
	}
	return fileVersion{dev: uint64(st.Dev), ino: uint64(st.Ino), size: info.Size(),
		modified: info.ModTime().UnixNano(), changed: changeTime(st)}, true
}
