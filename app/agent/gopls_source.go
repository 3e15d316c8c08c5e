package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"trestle/app/errdefs"
	"trestle/app/lsp"
	"trestle/app/project"
)

// The helpers every gopls operation uses (Definition, References,
// PackageAPI, Rename, LiveProblems): the file an agent names, the source
// lines of an answer, the go command's view of a package, and the kind of
// a failed gopls call.

// Location is a place gopls named, as agents read it: Path is
// project-relative, or absolute for Go source in the module cache or the
// Go root.
type Location struct {
	Path    string
	Line    int // 1-based
	Column  int // 1-based, in runes
	EndLine int // the declaration's last line (Definition); else 0
	Text    string
}

// At is where a Target resolved: a file (project-relative, or absolute
// for a package outside the project) and a position in it.
type At struct {
	Path string
	lsp.Position
}

// String is "path:line:column".
func (at At) String() string { return fmt.Sprintf("%s:%d:%d", at.Path, at.Line, at.Col) }

// goplsErr gives a failed gopls call its kind: a missing gopls is
// ErrNotFound (its text says how to install it), a deadline or a closed
// client ErrBusy; the rest is returned as it is. The text is unchanged.
func goplsErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, lsp.ErrNotInstalled):
		return errdefs.Errorf(errdefs.ErrNotFound, "%w", err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, lsp.ErrClosed):
		return errdefs.Errorf(errdefs.ErrBusy, "%w", err)
	}
	return err
}

// goFile confines name to the project and checks it is a Go file.
func (a *Agent) goFile(name string) (string, error) {
	cp, err := a.Path(name)
	if err != nil {
		return "", err
	}
	rel := cp.Rel()
	if !strings.HasSuffix(rel, ".go") {
		return "", errdefs.Errorf(errdefs.ErrInvalid, "%s is not a Go file; give the .go file that declares or uses the symbol", rel)
	}
	return rel, nil
}

// sources reads the files of one answer, each once: a references answer
// names the same files many times, and each read of a project file is a
// sha256 of it (and, in the window, a call to the main goroutine).
type sources struct {
	a     *Agent
	files map[string]*sourceFile
}

// sourceFile is one file's lines, with their line ends; nil lines when it
// could not be read.
type sourceFile struct {
	lines []string
	total int // project.CountLines
}

func (a *Agent) sources() *sources { return &sources{a: a, files: map[string]*sourceFile{}} }

// lines are lines [from, to] (1-based) of path: a project file as the
// person sees it, or Go source gopls loaded from the module cache or the
// Go root. Anything else is not read.
func (src *sources) lines(ctx context.Context, path string, from, to int) (string, bool) {
	f, ok := src.files[path]
	if !ok {
		f = &sourceFile{}
		if text, ok := src.a.sourceText(ctx, path); ok {
			f.lines, f.total = strings.SplitAfter(text, "\n"), project.CountLines(text)
		}
		src.files[path] = f
	}
	if f.lines == nil {
		return "", false
	}
	from, to = max(from, 1), min(to, f.total) // as project.SliceLines
	if to == 0 {
		to = f.total
	}
	if from > f.total || to < from {
		return "", false
	}
	return strings.TrimSuffix(strings.Join(f.lines[from-1:to], ""), "\n"), true
}

// sourceText is path's text, if sources may read it.
func (a *Agent) sourceText(ctx context.Context, path string) (string, bool) {
	if !filepath.IsAbs(path) {
		ft, _, err := a.ReadFile(ctx, path)
		if err != nil {
			return "", false
		}
		return ft.Text, true
	}
	if !strings.HasSuffix(path, ".go") || !goSourceRoots().contains(path) {
		return "", false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	return string(b), true
}

type sourceRoots []string

func (r sourceRoots) contains(path string) bool {
	for _, root := range r {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			return true
		}
	}
	return false
}

// isStd reports whether pkg is a package of the standard library: a
// folder with Go files under GOROOT/src (the first root). Import paths
// read this way first, as the go command reads them, so "errors" is the
// standard package even in a project with an errors/ folder.
func (r sourceRoots) isStd(pkg string) bool {
	if len(r) == 0 || pkg == "" || strings.HasPrefix(pkg, "vendor/") || strings.Contains(pkg, "..") {
		return false
	}
	ents, err := os.ReadDir(filepath.Join(r[0], "src", filepath.FromSlash(pkg)))
	if err != nil {
		return false
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

var (
	goRootsOnce sync.Once
	goRoots     sourceRoots // GOROOT, then GOMODCACHE
)

// goSourceRoots are GOROOT and GOMODCACHE, where gopls's definitions
// outside the project live.
func goSourceRoots() sourceRoots {
	goRootsOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOROOT", "GOMODCACHE").Output()
		if err != nil {
			return
		}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				goRoots = append(goRoots, filepath.Clean(l))
			}
		}
	})
	return goRoots
}

// goListFiles is the folder of pkg and its Go files under the current
// build context, as the go command sees them from root.
func goListFiles(ctx context.Context, root, pkg string) (string, []string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f", "{{.Dir}}\n{{if .Error}}{{.Error}}{{else}}{{range .GoFiles}}{{.}}\n{{end}}{{end}}", "--", pkg)
	cmd.Dir = root
	cmd.Env = readOnlyGoEnv(root)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("%s", firstLine(stderr.String(), err))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 2 || !strings.HasSuffix(lines[1], ".go") {
		if len(lines) >= 2 {
			return lines[0], nil, fmt.Errorf("%s", lines[1])
		}
		return lines[0], nil, nil
	}
	return lines[0], lines[1:], nil
}

// firstLine is the first line of the go command's stderr, else err.
func firstLine(stderr string, err error) string {
	if l, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n"); l != "" {
		return l
	}
	return err.Error()
}

// readOnlyGoEnv is the environment for a go command an agent's argument
// reaches: it may not change go.mod or go.sum (a GOFLAGS=-mod=mod in the
// person's environment would let `go list example.com/x` add a
// requirement) nor download anything.
func readOnlyGoEnv(root string) []string {
	mode := "-mod=readonly"
	if fi, err := os.Stat(filepath.Join(root, "vendor")); err == nil && fi.IsDir() {
		mode = "-mod=vendor"
	}
	return append(os.Environ(), "GOFLAGS="+mode, "GOPROXY=off")
}
