package task

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/mod/modfile"
)

// testResultLine is go test's verdict on one package: "ok  \tpkg\t0.1s",
// "FAIL\tpkg\t0.1s" or "FAIL\tpkg [build failed]".
var testResultLine = regexp.MustCompile(`^(?:ok|FAIL)\s+(\S+)(?:\s|$)`)

// moduleOf reads the module path of the go.mod in root, "" without one.
func moduleOf(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}

// packageDir is the project-relative folder of import path pkg in module
// mod, and whether pkg is in it.
func packageDir(mod, pkg string) (string, bool) {
	switch {
	case mod == "":
		return "", false
	case pkg == mod:
		return "", true
	case strings.HasPrefix(pkg, mod+"/"):
		return strings.TrimPrefix(pkg, mod+"/"), true
	}
	return "", false
}

// placeTestProblems moves the problems found since the previous package
// verdict into the folder of the package this line gives a verdict on, when
// they name a file that is not where the task ran but is in that folder: a
// test prints "calc_test.go:7: ..." relative to its package, and only the
// verdict that follows says which package that was. r.mu is held.
func (r *Run) placeTestProblems(line string) {
	m := testResultLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return
	}
	dir, ok := packageDir(r.module, m[1])
	for i := r.pkgStart; ok && i < len(r.problems); i++ {
		p := &r.problems[i]
		if exists(filepath.Join(r.root, filepath.FromSlash(p.Path))) {
			continue
		}
		if moved := path.Join(dir, p.Path); exists(filepath.Join(r.root, filepath.FromSlash(moved))) {
			p.Path = moved
		}
	}
	r.pkgStart = len(r.problems)
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
