package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"trestle/app"
)

// loaded is a file read for a tab, off the main goroutine: either its text
// or a one-line notice of why it is not shown.
type loaded struct {
	path   string // project-relative, forward slashes
	text   string
	src    sourceText
	notice string
}

// loadFile reads the project file name for a tab. A name outside the
// project, a missing file or a folder is an error (app.ErrOutside,
// app.ErrNotFound, app.ErrInvalid); a file that cannot be shown as text
// (binary, too large, unreadable, not a regular file) loads as a notice.
// It does file I/O: never call it on the main goroutine.
func loadFile(p *app.Project, name string) (loaded, error) {
	abs, err := p.Resolve(name)
	if err != nil {
		return loaded{}, err
	}
	f := loaded{path: p.Rel(abs)}
	info, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return loaded{}, fmt.Errorf("open %s: no such file: %w", f.path, app.ErrNotFound)
	case err != nil:
		f.notice = fmt.Sprintf("This file cannot be read: %v", err)
	case info.IsDir():
		return loaded{}, fmt.Errorf("open %s: it is a folder, not a file: %w", f.path, app.ErrInvalid)
	case !info.Mode().IsRegular():
		f.notice = "This is not a regular file, so it is not shown."
	case info.Size() > app.MaxReadBytes:
		f.notice = fmt.Sprintf("This file is %d bytes, over the %d byte limit, so it is not shown.", info.Size(), app.MaxReadBytes)
	}
	if f.notice != "" {
		return f, nil
	}
	data, err := os.ReadFile(abs)
	switch {
	case err != nil:
		f.notice = fmt.Sprintf("This file cannot be read: %v", err)
	case app.IsBinary(data):
		f.notice = "This is a binary file, so it is not shown."
	default:
		f.text = string(data)
		f.src = newSourceText(f.text)
	}
	return f, nil
}
