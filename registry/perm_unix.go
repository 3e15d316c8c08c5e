//go:build unix

package registry

import (
	"io/fs"
	"os"
	"syscall"
)

// unixPerms says CheckPrivate can trust permission bits and owners.
const unixPerms = true

// ownedByUser reports whether info's file belongs to the current user.
func ownedByUser(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
