package changeset

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trestle/app/project"
	"trestle/app/store"
	"trestle/app/workbench"
)

// tfile is a test file: content and mode.
type tfile struct {
	text string
	mode fs.FileMode
}

// newProject writes files (0644 unless the name ends in "!x", 0755) into a
// new project folder.
func newProject(t testing.TB, files map[string]string) *project.Project {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		mode := fs.FileMode(0o644)
		if n, ok := strings.CutSuffix(name, "!x"); ok {
			name, mode = n, 0o755
		}
		abs := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(abs, mode) // past the umask
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// diskReader reads project files from disk, as trestle_read does with no
// editor open.
func diskReader(p *project.Project) ReadFunc {
	return workbench.Reader{Project: p}.Func(context.Background())
}

// snapshot is every file and folder under the project root ("/" ends a folder).
func snapshot(t testing.TB, p *project.Project) map[string]tfile {
	t.Helper()
	out := map[string]tfile{}
	err := filepath.WalkDir(p.Root, func(abs string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel := p.Rel(abs)
		if d.IsDir() {
			out[rel+"/"] = tfile{mode: info.Mode().Perm()}
			return nil
		}
		data, err := os.ReadFile(abs)
		out[rel] = tfile{string(data), info.Mode().Perm()}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails t when the tree differs from want, naming the files.
func sameTree(t testing.TB, p *project.Project, want map[string]tfile) {
	t.Helper()
	sameEntries(t, snapshot(t, p), want)
}

// sameFiles is sameTree for files only, folders left out.
func sameFiles(t testing.TB, p *project.Project, want map[string]tfile) {
	t.Helper()
	got := snapshot(t, p)
	maps.DeleteFunc(got, func(k string, _ tfile) bool { return strings.HasSuffix(k, "/") })
	sameEntries(t, got, want)
}

func sameEntries(t testing.TB, got, want map[string]tfile) {
	t.Helper()
	if maps.Equal(got, want) {
		return
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if w, ok := want[k]; !ok {
			t.Errorf("%s: unexpected", k)
		} else if w != got[k] {
			t.Errorf("%s: got %q %v, want %q %v", k, short(got[k].text), got[k].mode, short(w.text), w.mode)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("%s: missing", k)
		}
	}
	t.FailNow()
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// newManager opens a store in a temp folder for project p.
func newManager(t testing.TB, p *project.Project) *Manager {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	return NewManager(s, p)
}

var errInjected = errors.New("injected failure")

// faultyWriter is the real writer with the Nth Rename or WriteTemp
// (1-based) failing, and Link failing when noLinks is set.
type faultyWriter struct {
	OSWriter
	failRename, failWrite int
	renames, writes       int
	noLinks               bool
}

func (w *faultyWriter) WriteTemp(dir, pattern string, data []byte, perm fs.FileMode) (string, error) {
	if w.writes++; w.writes == w.failWrite {
		return "", errInjected
	}
	return w.OSWriter.WriteTemp(dir, pattern, data, perm)
}

func (w *faultyWriter) Rename(oldpath, newpath string) error {
	if w.renames++; w.renames == w.failRename {
		return errInjected
	}
	return w.OSWriter.Rename(oldpath, newpath)
}

func (w *faultyWriter) Link(oldname, newname string) error {
	if w.noLinks {
		return errInjected
	}
	return w.OSWriter.Link(oldname, newname)
}
