package agent

import (
	"context"
	"strings"
	"time"

	"trestle/app/errdefs"
	"trestle/app/lsp"
	"trestle/app/project"
	"trestle/app/search"
	"trestle/app/workbench"
)

// ReadOutput is a file's text as agents read it, or lines of it.
type ReadOutput struct {
	Path               string // project-relative
	Text               string // the lines asked for
	Lines              int    // the whole file's line count
	StartLine, EndLine int    // the lines Text holds, 1-based, inclusive
	SHA256             string // of the whole text
	Unsaved            bool   // the window's unsaved editor text
}

// Read is lines startLine..endLine (1-based, inclusive; 0 for the first
// and the last) of the project file name as the person sees it: an open
// editor's text, unsaved included, else the file on disk.
func (a *Agent) Read(ctx context.Context, name string, startLine, endLine int) (ReadOutput, error) {
	ft, unsaved, err := a.ReadFile(ctx, name)
	if err != nil {
		return ReadOutput{}, err
	}
	text, err := project.SliceLines(ft.Text, startLine, endLine)
	if err != nil {
		return ReadOutput{}, errdefs.Errorf(errdefs.ErrInvalid, "read %s: %v", ft.Path, err)
	}
	start, end := max(startLine, 1), endLine
	if end == 0 || end > ft.Lines {
		end = ft.Lines
	}
	return ReadOutput{Path: ft.Path, Text: text, Lines: ft.Lines, StartLine: start, EndLine: end, SHA256: ft.SHA256, Unsaved: unsaved}, nil
}

// ReadFile confines name to the project and reads it whole as Read does,
// with whether it is unsaved editor text.
func (a *Agent) ReadFile(ctx context.Context, name string) (project.FileText, bool, error) {
	cp, err := a.Path(name)
	if err != nil {
		return project.FileText{}, false, err
	}
	return a.reader().Read(ctx, cp)
}

// Path confines a path an agent names to the project: ErrInvalid when it
// is empty, ErrOutside when it leaves the project.
func (a *Agent) Path(name string) (project.Path, error) {
	if name == "" {
		return project.Path{}, errMissingPath
	}
	return a.cfg.Project.ResolveShown(name)
}

var errMissingPath = errdefs.Errorf(errdefs.ErrInvalid, "path is required, relative to the project root, e.g. \"main.go\"")

// Files lists the project's files under a folder ("" for all),
// optionally by glob, at most limit (0 for project.ListFiles's default):
// relative paths, sorted, without .git or what .gitignore ignores; true
// when more were left off.
func (a *Agent) Files(ctx context.Context, under, glob string, limit int) ([]string, bool, error) {
	return a.cfg.Project.ListFiles(ctx, under, glob, limit)
}

// Search searches the project's files (not .git, gitignored or binary
// ones) for q.
func (a *Agent) Search(ctx context.Context, q search.Query) (search.Result, error) {
	if q.Limit < 0 || q.Limit > search.MaxLimit {
		return search.Result{}, errdefs.Errorf(errdefs.ErrInvalid, "limit %d is outside 1..%d", q.Limit, search.MaxLimit)
	}
	p := a.cfg.Project
	ignored := p.Ignore().Ignored
	skip := func(rel string, dir bool) bool { return p.IsGitMetadata(rel) || ignored(rel, dir) }
	res, err := search.Run(ctx, p.Root, q, search.Options{Ignored: skip})
	if err != nil {
		return res, errdefs.Errorf(errdefs.ErrInvalid, "search: %v", err)
	}
	return res, nil
}

// GoplsSymbolCap is the most symbols gopls's workspace/symbol returns.
const GoplsSymbolCap = 100

// SymbolsOutput is what a symbol search found.
type SymbolsOutput struct {
	Symbols []lsp.Symbol // at most the limit asked for
	// Found is how many gopls returned; Truncated that more may match
	// than Symbols holds (gopls stops at its cap without saying whether
	// more matched: a full answer is taken as cut).
	Found     int
	Truncated bool
	Limit     int // the limit applied: 50 by default, at most GoplsSymbolCap
}

// Symbols is gopls's fuzzy workspace symbol search for query, at most
// limit of them (0 for 50).
func (a *Agent) Symbols(ctx context.Context, query string, limit int) (SymbolsOutput, error) {
	if strings.TrimSpace(query) == "" {
		return SymbolsOutput{}, errdefs.Errorf(errdefs.ErrInvalid, "query is required, e.g. {\"query\":\"NewServer\"}")
	}
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, GoplsSymbolCap)
	c, ctx, cancel := a.Gopls(ctx)
	defer cancel()
	syms, err := c.Symbols(ctx, query)
	if err != nil {
		return SymbolsOutput{}, goplsErr(err)
	}
	out := SymbolsOutput{Symbols: syms[:min(len(syms), limit)], Found: len(syms), Limit: limit,
		Truncated: len(syms) >= GoplsSymbolCap || len(syms) > limit}
	return out, nil
}

// goplsWait bounds one gopls call: the first one waits for gopls to load
// the module, which takes seconds on a big module and a busy machine.
const goplsWait = 90 * time.Second

// Gopls returns the project's language server with the window's open
// editors sent to it (so answers reflect unsaved text), and the deadline
// for the call.
func (a *Agent) Gopls(ctx context.Context) (*lsp.Client, context.Context, context.CancelFunc) {
	c := a.cfg.Services.LSP
	ctx, cancel := context.WithTimeout(ctx, goplsWait)
	if w := a.cfg.Window; w != nil {
		a.syncEditors(ctx, w, c)
	}
	return c, ctx, cancel
}

// syncEditors sends gopls the text of every open editor that changed since
// it was last sent (each tab's Version names its text): an unchanged
// editor costs no main-goroutine call.
func (a *Agent) syncEditors(ctx context.Context, w workbench.Window, c *lsp.Client) {
	tabs, err := w.Tabs(ctx)
	if err != nil {
		return // the UI is busy: gopls keeps what the editor last sent it
	}
	for _, t := range tabs {
		if !strings.HasSuffix(t.Path, ".go") && !strings.HasSuffix(t.Path, "go.mod") {
			continue
		}
		cp, err := a.cfg.Project.Resolve(t.Path)
		if err != nil {
			continue
		}
		c.OpenDocumentVersion(t.Path, t.Version, func() (string, bool) {
			text, open, _, err := w.Buffer(ctx, cp)
			return text, err == nil && open
		})
	}
}
