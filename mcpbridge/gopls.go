package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/lsp"
	"trestle/app/project"
)

// The helpers every gopls tool uses (trestle_symbols, _definition,
// _references, _package_api, _rename and the live part of
// trestle_diagnostics).

// maxDeclLines caps the declaration text trestle_definition returns.
const maxDeclLines = 80

// gopls returns the project's language server with the window's open
// editors sent to it, and the deadline for the call (agent.Gopls).
func (s *Server) gopls(ctx context.Context) (*lsp.Client, context.Context, context.CancelFunc) {
	return s.agent.Gopls(ctx)
}

// goplsFail is a failed gopls call: a missing gopls or a deadline is
// busy/none with how to fix it, the rest a problem.
func goplsFail(err error) *mcp.CallToolResult {
	switch {
	case errors.Is(err, lsp.ErrNotInstalled):
		return fail(stateNone, "%v", err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, lsp.ErrClosed):
		return fail(stateBusy, "%v", err)
	}
	return failErr(err)
}

// goFile confines path to the project and checks it is a Go file.
func (s *Server) goFile(path string) (string, *mcp.CallToolResult) {
	rel, err := s.projectRel(path)
	if err != nil {
		return "", failErr(err)
	}
	if !strings.HasSuffix(rel, ".go") {
		return "", fail(stateProblem, "%s is not a Go file; give the .go file that declares or uses the symbol", rel)
	}
	return rel, nil
}

// sourceLines are lines [from, to] (1-based) of path: a project file as
// the person sees it, or Go source gopls loaded from the module cache or
// the Go root. Anything else is not read.
func (s *Server) sourceLines(ctx context.Context, path string, from, to int) (string, bool) {
	return s.sources().lines(ctx, path, from, to)
}

// sources reads the files of one answer, each once: a references answer
// names the same files many times, and each read of a project file is a
// sha256 of it (and, in the window, a call to the main goroutine).
type sources struct {
	s     *Server
	files map[string]*sourceFile
}

// sourceFile is one file's lines, with their line ends; nil lines when it
// could not be read.
type sourceFile struct {
	lines []string
	total int // project.CountLines
}

func (s *Server) sources() *sources { return &sources{s: s, files: map[string]*sourceFile{}} }

// lines is sourceLines from the files read so far.
func (src *sources) lines(ctx context.Context, path string, from, to int) (string, bool) {
	f, ok := src.files[path]
	if !ok {
		f = &sourceFile{}
		if text, ok := src.s.sourceText(ctx, path); ok {
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

// sourceText is path's text, if sourceLines may read it.
func (s *Server) sourceText(ctx context.Context, path string) (string, bool) {
	if !filepath.IsAbs(path) {
		ft, _, err := s.agent.ReadFile(ctx, path)
		if err != nil {
			return "", false
		}
		return ft.Text, true
	}
	if !strings.HasSuffix(path, ".go") || !s.goSourceRoots().contains(path) {
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
func (s *Server) goSourceRoots() sourceRoots {
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

// locationLine is a location as agents read it.
type locationLine struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	EndLine int    `json:"end_line,omitempty"`
	Text    string `json:"text,omitempty"`
}

func (l locationLine) String() string { return fmt.Sprintf("%s:%d:%d", l.Path, l.Line, l.Column) }

// goplsHeadline is how the gopls tools' descriptions end, in this mode.
func (s *Server) goplsHeadline() string {
	return s.inMode("Answered by gopls, unsaved editor text included. ", "Answered by gopls. ")
}
