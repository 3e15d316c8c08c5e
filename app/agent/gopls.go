package agent

import (
	"context"
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/lsp"
)

// The gopls operations: where a symbol is declared and used, a package's
// API, and a rename proposed as a change set (gopls's live diagnostics are
// LiveProblems, in diagnostics.go).
// Each asks the project's gopls (Gopls), with the window's unsaved editor
// text sent to it first.

// maxDeclLines caps the declaration text Definition returns.
const maxDeclLines = 80

// DefinitionOutput is where a symbol is declared.
type DefinitionOutput struct {
	At          At         // where the Target resolved
	Definitions []Location // each with its declaration's lines; none for a builtin
}

// Definition is where the symbol t points at is declared, each place with
// the lines of its declaration (at most maxDeclLines).
func (a *Agent) Definition(ctx context.Context, t Target) (DefinitionOutput, error) {
	rel, err := a.goFile(t.Path)
	if err != nil {
		return DefinitionOutput{}, err
	}
	c, ctx, cancel := a.Gopls(ctx)
	defer cancel()
	at, err := a.position(ctx, c, rel, t)
	if err != nil {
		return DefinitionOutput{}, err
	}
	locs, err := c.Definition(ctx, at.Path, at.Position)
	if err != nil {
		return DefinitionOutput{}, goplsErr(err)
	}
	out := DefinitionOutput{At: at, Definitions: []Location{}}
	src := a.sources()
	for _, l := range locs {
		out.Definitions = append(out.Definitions, a.declaration(ctx, c, src, l))
	}
	return out, nil
}

// declaration is l with the lines of the declaration it names: the
// outline entry that starts there, else the line alone.
func (a *Agent) declaration(ctx context.Context, c *lsp.Client, src *sources, l lsp.Location) Location {
	d := Location{Path: l.Path, Line: l.Range.Start.Line, Column: l.Range.Start.Col, EndLine: l.Range.Start.Line}
	if syms, err := c.DocumentSymbols(ctx, l.Path); err == nil {
		for _, sy := range syms {
			if sy.Line == d.Line && sy.Col == d.Column && sy.EndLine >= d.Line {
				d.EndLine = min(sy.EndLine, d.Line+maxDeclLines-1)
				break
			}
		}
	}
	d.Text, _ = src.lines(ctx, l.Path, d.Line, d.EndLine)
	return d
}

// ReferencesOutput are the uses of a symbol.
type ReferencesOutput struct {
	At         At         // where the Target resolved
	References []Location // at most the limit, each with its line's text
	Count      int        // how many gopls found
	Truncated  bool       // more than References holds
}

// References are the uses of the symbol t points at across the workspace,
// type-checked, its declaration included when includeDecl is set; at most
// limit (0 for 200, at most 2000).
func (a *Agent) References(ctx context.Context, t Target, includeDecl bool, limit int) (ReferencesOutput, error) {
	rel, err := a.goFile(t.Path)
	if err != nil {
		return ReferencesOutput{}, err
	}
	if limit <= 0 {
		limit = 200
	}
	limit = min(limit, 2000)
	c, ctx, cancel := a.Gopls(ctx)
	defer cancel()
	at, err := a.position(ctx, c, rel, t)
	if err != nil {
		return ReferencesOutput{}, err
	}
	locs, err := c.References(ctx, at.Path, at.Position, includeDecl)
	if err != nil {
		return ReferencesOutput{}, goplsErr(err)
	}
	out := ReferencesOutput{At: at, References: []Location{}, Count: len(locs)}
	src := a.sources()
	for _, l := range locs {
		if len(out.References) == limit {
			out.Truncated = true
			break
		}
		r := Location{Path: l.Path, Line: l.Range.Start.Line, Column: l.Range.Start.Col}
		if text, ok := src.lines(ctx, l.Path, r.Line, r.Line); ok {
			r.Text = strings.TrimSpace(text)
		}
		out.References = append(out.References, r)
	}
	return out, nil
}

// PackageAPI is the exported API of a Go package (types with their fields
// and methods, functions, constants, variables), with signatures and
// where each is declared; doc comments only when docs is set. pkg is an
// import path (net/http, go.etcd.io/bbolt) or a project folder (app/store;
// . for the root; ./errors when a standard package has its name).
func (a *Agent) PackageAPI(ctx context.Context, pkg string, docs bool) (lsp.PackageAPI, error) {
	if strings.TrimSpace(pkg) == "" {
		return lsp.PackageAPI{}, errdefs.Errorf(errdefs.ErrInvalid, "package is required, e.g. {\"package\":\"app/store\"}")
	}
	c, ctx, cancel := a.Gopls(ctx)
	defer cancel()
	file, err := a.packageFile(ctx, pkg)
	if err != nil {
		return lsp.PackageAPI{}, err
	}
	api, err := c.PackageAPI(ctx, file)
	if err != nil {
		return lsp.PackageAPI{}, goplsErr(err)
	}
	syms := []lsp.Symbol{}
	for _, sy := range api.Symbols {
		if !docs {
			sy.Doc = ""
		}
		syms = append(syms, sy)
	}
	api.Symbols = syms
	return api, nil
}

// packageFile is one Go file of the package that the current build
// context compiles (go list's GoFiles: a file that build constraints
// exclude, such as bbolt's bolt_386.go, would have gopls describe an empty
// package). pkg is an import path when it names one (a standard package
// before a project folder of the same name, as Go reads an import), else a
// project folder.
func (a *Agent) packageFile(ctx context.Context, pkg string) (string, error) {
	pkg = strings.TrimSuffix(filepath.ToSlash(strings.TrimSpace(pkg)), "/")
	folder := strings.HasPrefix(pkg, ".") || filepath.IsAbs(pkg) ||
		(!strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") && !goSourceRoots().isStd(pkg))
	target := pkg
	if folder {
		cp, err := a.Path(strings.TrimPrefix(pkg, "./"))
		if err != nil {
			return "", err
		}
		target = "./" + cp.Rel()
	}
	root := a.cfg.Project.Root
	dir, files, err := goListFiles(ctx, root, target)
	if err != nil {
		return "", errdefs.Errorf(errdefs.ErrNotFound, "no Go package %q in the project or among the packages it can import: %v "+
			"(give a folder such as app/store, or an import path such as net/http)", pkg, err)
	}
	if len(files) == 0 {
		return "", errdefs.Errorf(errdefs.ErrNotFound, "package %q has no Go files for this platform and build tags (%s)", pkg, dir)
	}
	abs := filepath.Join(dir, files[0])
	if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel), nil
	}
	if !goSourceRoots().contains(abs) {
		return "", errdefs.Errorf(errdefs.ErrRefused, "package %q lives outside the project, the module cache and the Go root", pkg)
	}
	return abs, nil
}

// RenameInput is what Rename renames, to what, and why.
type RenameInput struct {
	Target
	NewName     string // a Go identifier
	Description string // markdown for the person: why the rename
}

// Rename renames the symbol in.Target points at everywhere it is used, as
// gopls computes it on the text the person sees, and proposes the result
// as a change set for the person to review (Propose); it applies nothing.
// Only the project's own names can be renamed, and only when every file
// the rename edits is in the project.
func (a *Agent) Rename(ctx context.Context, who Caller, in RenameInput) (changeset.ChangeSet, error) {
	rel, err := a.goFile(in.Path)
	if err != nil {
		return changeset.ChangeSet{}, err
	}
	if !token.IsIdentifier(in.NewName) {
		return changeset.ChangeSet{}, errdefs.Errorf(errdefs.ErrInvalid, "new_name %q is not a Go identifier", in.NewName)
	}
	p, err := a.renameProposal(ctx, rel, in)
	if err != nil {
		return changeset.ChangeSet{}, err
	}
	return a.Propose(ctx, who, p)
}

// renameProposal is the change set renaming in.Target would make, within
// gopls's deadline; ctx bounds the reads that check each file's text.
func (a *Agent) renameProposal(ctx context.Context, rel string, in RenameInput) (changeset.Proposal, error) {
	c, gctx, cancel := a.Gopls(ctx)
	defer cancel()
	at, err := a.position(gctx, c, rel, in.Target)
	if err != nil {
		return changeset.Proposal{}, err
	}
	if filepath.IsAbs(at.Path) {
		return changeset.Proposal{}, errdefs.Errorf(errdefs.ErrRefused,
			"%s is declared outside the project (%s); only the project's own names can be renamed", in.Symbol, at.Path)
	}
	edits, err := c.Rename(gctx, at.Path, at.Position, in.NewName)
	if err != nil {
		return changeset.Proposal{}, goplsErr(err)
	}
	if len(edits) == 0 {
		return changeset.Proposal{}, errdefs.Errorf(errdefs.ErrNotFound, "gopls found nothing to rename at %s", at)
	}
	p := changeset.Proposal{Description: in.Description}
	for _, e := range edits {
		if filepath.IsAbs(e.Path) {
			return changeset.Proposal{}, errdefs.Errorf(errdefs.ErrRefused, "the rename would edit %s, outside the project; nothing was proposed", e.Path)
		}
		// gopls computed on the text it was sent; the change set's base is
		// what Read returns. They must be the same text.
		if now, _, err := a.ReadFile(ctx, e.Path); err != nil || now.Text != e.Old {
			return changeset.Proposal{}, errdefs.Errorf(errdefs.ErrInvalid, "%s changed while the rename was computed; try again (nothing was proposed)", e.Path)
		}
		p.Changes = append(p.Changes, changeset.Change{Path: e.Path, Action: changeset.ActionReplace, Content: e.New})
	}
	name := in.Symbol
	if name == "" {
		name = fmt.Sprintf("the symbol at %s:%d:%d", rel, at.Line, at.Col)
	}
	p.Title = fmt.Sprintf("Rename %s to %s", name, in.NewName)
	return p, nil
}
