package ui

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"trestle/app/errdefs"
	"trestle/app/project"
	"trestle/app/textbuf"
	"trestle/ui/editor"
)

// loaded is a file read for a tab, off the main goroutine: either its text
// as a buffer (highlighted when it is Go source) or a one-line notice of
// why it is not shown.
type loaded struct {
	path   string               // project-relative, forward slashes
	buf    *textbuf.Buffer      // nil for a notice
	hl     *textbuf.Highlighter // nil unless buf holds Go source
	notice string
	hash   [sha256.Size]byte // of the bytes read, when buf is set
}

// loadFile reads the project file name for a tab. A name outside the
// project, a missing file or a folder is an error (errdefs.ErrOutside,
// errdefs.ErrNotFound, errdefs.ErrInvalid); a file that cannot be shown as text
// (binary, too large, unreadable, not a regular file) loads as a notice.
// It does file I/O: never call it on the main goroutine.
func loadFile(p *project.Project, name string) (loaded, error) {
	cp, err := p.Resolve(name)
	if err != nil {
		return loaded{}, err
	}
	return loadPath(p, cp)
}

// loadPath is loadFile for a path already confined: it does not resolve
// it again.
func loadPath(p *project.Project, cp project.Path) (loaded, error) {
	if cp.IsZero() {
		return loaded{}, fmt.Errorf("open: no path was given: %w", errdefs.ErrInvalid)
	}
	abs := cp.Abs()
	f := loaded{path: p.Rel(abs)}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return loaded{}, fmt.Errorf("open %s: no such file: %w", f.path, errdefs.ErrNotFound)
	case err != nil:
		f.notice = fmt.Sprintf("This file cannot be read: %v", err)
	case info.IsDir():
		return loaded{}, fmt.Errorf("open %s: it is a folder, not a file: %w", f.path, errdefs.ErrInvalid)
	case !info.Mode().IsRegular():
		f.notice = "This is not a regular file, so it is not shown."
	case info.Size() > project.MaxReadBytes:
		f.notice = fmt.Sprintf("This file is %d bytes, over the %d byte limit, so it is not shown.", info.Size(), project.MaxReadBytes)
	}
	if f.notice != "" {
		return f, nil
	}
	data, err := os.ReadFile(abs)
	switch {
	case err != nil:
		f.notice = fmt.Sprintf("This file cannot be read: %v", err)
	case project.IsBinary(data):
		f.notice = "This is a binary file, so it is not shown."
	default:
		f.hash = sha256.Sum256(data)
		f.buf = textbuf.New(string(data))
		if editor.IsGoFile(f.path) {
			f.hl = textbuf.NewHighlighter(f.buf.LineCount(), f.buf.Line)
		}
	}
	return f, nil
}

// saveFile writes text to the project file rel through a temporary file
// in the same folder and a rename, so that a failed write (a read-only
// folder, a full disk) leaves the file as it was. The file keeps its
// permission bits; a new one gets 0644. It does file I/O: never call it on
// the main goroutine.
func saveFile(p *project.Project, rel, text string) error {
	cp, err := p.Resolve(rel)
	if err != nil {
		return fmt.Errorf("save %s: %w", rel, err)
	}
	abs := cp.Abs()
	mode := fs.FileMode(0o644)
	if info, err := os.Stat(abs); err == nil {
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".trestle-*")
	if err != nil {
		return fmt.Errorf("save %s: create a temporary file: %w", rel, err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := writeTemp(tmp, text, mode); err != nil {
		return fmt.Errorf("save %s: write %s: %w", rel, tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), abs); err != nil {
		return fmt.Errorf("save %s: %w", rel, err)
	}
	return nil
}

// writeTemp writes a save's temporary file: writeAndClose, replaced by
// tests to fail as a full or read-only disk would.
var writeTemp = writeAndClose

// writeAndClose writes text to f, sets its mode, syncs and closes it.
func writeAndClose(f *os.File, text string, mode fs.FileMode) error {
	_, err := f.WriteString(text)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
