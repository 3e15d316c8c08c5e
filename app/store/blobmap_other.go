//go:build !unix

package store

import "os"

// mapFile reads the file at path, for MapBlob: no mapping here.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }
