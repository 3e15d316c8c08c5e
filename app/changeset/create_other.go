//go:build !unix

package changeset

import (
	"errors"
	"io/fs"
	"os"
)

// holdFolders says a transaction may hold its folders open (see folders):
// not here, where an open folder cannot be removed (a rollback removes
// the folders it created).
const holdFolders = false

// createIn is never called without held folders.
func createIn(d *os.File, name string, data []byte, perm fs.FileMode) error {
	return errors.New("createIn needs held folders")
}

// renameIn is never called without held folders.
func renameIn(d *os.File, a, b string) error {
	return errors.New("renameIn needs held folders")
}
