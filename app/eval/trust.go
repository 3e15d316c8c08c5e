package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"
)

// Project trust (package trust, issue 20): in a project the person has not
// trusted, nothing of the project's is compiled to native code and run by
// the evaluator. A package the interpreter reads from source runs as the
// person's input does; a project package that needs native code (unsafe,
// assembly, cgo) is not linked into a worker, and the compiled path builds
// no program that imports a project package. Either is refused with the
// reason and how to trust the project, and nothing is kept.

// untrustedNative is why path may not run natively in this project, or ""
// when it may: the project is trusted, or path is not the project's code.
func (m *Manager) untrustedNative(path string) string {
	if m.opts.ProjectTrusted == nil || m.opts.ProjectTrusted() || !m.projectCode(path) {
		return ""
	}
	return fmt.Sprintf("%s would run as native code, and this project is not trusted: Trestle runs a project's "+
		"own packages natively only when the person trusts the folder (the Untrusted button in the status bar, "+
		"or trestle --trust)", path)
}

// inModule reports whether path is a package of the project's module.
func (m *Manager) inModule(path string) bool {
	mod := m.opts.Module
	return mod != "" && (path == mod || strings.HasPrefix(path, mod+"/"))
}

// projectCode reports whether path is the project's code: a package of its
// module, or of a module the project's files point at a folder for (a
// go.mod replace by a folder, a go.work's use or replace), which the go
// command builds from that folder as it builds the project's own.
func (m *Manager) projectCode(path string) bool {
	if m.inModule(path) {
		return true
	}
	for _, mod := range localModules(m.opts.Root) {
		if path == mod || strings.HasPrefix(path, mod+"/") {
			return true
		}
	}
	return false
}

// localModules are the paths of the modules whose source the files of the
// project at root place in a folder: go.mod's replacements by a folder,
// and the modules of the go.work the go command would use (GOWORK, else
// the first go.work in root or a folder above it), its replacements by a
// folder included. A file that does not parse adds nothing (the go
// command refuses it too).
func localModules(root string) []string {
	var mods []string
	if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		if f, err := modfile.Parse("go.mod", data, nil); err == nil {
			for _, r := range f.Replace {
				if r.New.Version == "" {
					mods = append(mods, r.Old.Path)
				}
			}
		}
	}
	work := findGoWork(root)
	if work == "" {
		return mods
	}
	data, err := os.ReadFile(work)
	if err != nil {
		return mods
	}
	f, err := modfile.ParseWork(work, data, nil)
	if err != nil {
		return mods
	}
	for _, u := range f.Use {
		dir := u.Path
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(work), dir)
		}
		if gomod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			if mod := modfile.ModulePath(gomod); mod != "" {
				mods = append(mods, mod)
			}
		}
	}
	for _, r := range f.Replace {
		if r.New.Version == "" {
			mods = append(mods, r.Old.Path)
		}
	}
	return mods
}

// findGoWork is the go.work file the go command uses for a module at
// root, or "" for none.
func findGoWork(root string) string {
	switch gowork := os.Getenv("GOWORK"); {
	case gowork == "off":
		return ""
	case gowork != "":
		return gowork
	}
	for dir := root; ; {
		if info, err := os.Stat(filepath.Join(dir, "go.work")); err == nil && !info.IsDir() {
			return filepath.Join(dir, "go.work")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
