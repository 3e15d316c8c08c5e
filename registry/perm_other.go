//go:build !unix

package registry

import "io/fs"

// unixPerms says CheckPrivate can trust permission bits and owners; here
// it cannot (Windows keeps ACLs, not mode bits).
const unixPerms = false

func ownedByUser(fs.FileInfo) bool { return true }
