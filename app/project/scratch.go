package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteScratch copies the files of fsys into dir, creating folders, and
// leaves files that already exist alone so the person's edits to the
// scratch project survive. A ".tmpl" suffix is dropped from each name (so
// the embedded copy is not Go source of the embedding module). It is used
// on first run, when there is no project to open.
func WriteScratch(fsys fs.FS, dir string) error {
	return fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(name, ".tmpl")))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if _, err := os.Stat(dst); err == nil {
			return nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("write scratch project: %w", err)
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return fmt.Errorf("write scratch project: read %s: %w", name, err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("write scratch project: %w", err)
		}
		return nil
	})
}
