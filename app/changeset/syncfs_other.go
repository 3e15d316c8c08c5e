//go:build !linux

package changeset

import "errors"

// syncfsFrom: without syncfs every file is synced on its own.
const syncfsFrom = 1 << 30

func syncFS(string) error { return errors.New("syncfs is not available here") }

// sameFileSystem: without syncfs nothing is flushed together.
func sameFileSystem(a, b string) bool { return false }
