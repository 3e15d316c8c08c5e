package agent

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"trestle/app/errdefs"
	"trestle/app/lsp"
)

// maxCandidates bounds how many uses of a member name position asks gopls
// about when it looks for the one whose declaration is Type.Member.
const maxCandidates = 25

// Target is what a gopls operation points at in a project Go file: a
// symbol as written there, or a 1-based line and rune column.
type Target struct {
	Path   string // the Go file, project-relative
	Symbol string // Open, shapes.NewSquare, DB.Close, (*DB).Close
	Line   int    // with Column, instead of Symbol
	Column int
}

// position is where t points, in rel (t.Path confined to the project), or
// for a package's name the file that declares it (in the module cache or
// the Go root). A symbol is read as Go reads it in rel, never by its last
// word alone:
//   - pkg.Name, where pkg is one of rel's imports: its first use in rel,
//     else its declaration in that package (fmt.Errorf is fmt's, never a
//     method Errorf of the file's own types);
//   - a name declared in rel, or Type.Member declared there: that
//     declaration;
//   - qual.Name as written in rel (db.Close for a variable db);
//   - Type.Member declared elsewhere: the first use in rel that gopls says
//     is that member;
//   - a plain name: its first use in rel as an identifier.
//
// Anything else is ErrNotFound, saying what rel declares.
func (a *Agent) position(ctx context.Context, c *lsp.Client, rel string, t Target) (At, error) {
	if t.Line > 0 {
		return At{rel, lsp.Position{Line: t.Line, Col: max(t.Column, 1)}}, nil
	}
	symbol := strings.TrimSpace(t.Symbol)
	if symbol == "" {
		return At{}, errdefs.Errorf(errdefs.ErrInvalid, "give symbol (e.g. \"Open\" or \"DB.Close\") or line and column")
	}
	ft, _, err := a.ReadFile(ctx, rel)
	if err != nil {
		return At{}, err
	}
	f := parseUses(ft.Text)
	qual, name, qualified := splitQualified(symbol)
	if imp := f.imports[qual]; qualified && imp != "" {
		if p, ok := f.selector(qual, name); ok {
			return At{rel, p}, nil
		}
		if path, p, ok := a.packageMember(ctx, c, imp, name); ok {
			return At{path, p}, nil
		}
		return At{}, errdefs.Errorf(errdefs.ErrNotFound, "%s imports %s (%q), which declares no %s", rel, qual, imp, name)
	}
	p, lerr := c.Locate(ctx, rel, symbol)
	if lerr == nil {
		return At{rel, p}, nil
	}
	if qualified {
		if p, ok := f.selector(qual, name); ok { // as written: db.Close, sqlite3.Open
			return At{rel, p}, nil
		}
		if p, ok := a.memberUse(ctx, c, rel, f, qual, name); ok {
			return At{rel, p}, nil
		}
	} else if p, ok := f.ident(name); ok {
		return At{rel, p}, nil
	}
	return At{}, errdefs.Errorf(errdefs.ErrNotFound, "%v; nor does it use %s", lerr, symbol)
}

// packageMember is where the package imp declares name, from gopls's
// workspace symbols filtered to that package's folder.
func (a *Agent) packageMember(ctx context.Context, c *lsp.Client, imp, name string) (string, lsp.Position, bool) {
	dir, _, err := goListFiles(ctx, a.cfg.Project.Root, imp)
	if err != nil || dir == "" {
		return "", lsp.Position{}, false
	}
	syms, err := c.Symbols(ctx, path.Base(imp)+"."+name)
	if err != nil {
		return "", lsp.Position{}, false
	}
	for _, sy := range syms {
		_, n, _ := splitQualified(sy.Name)
		abs := sy.Path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(a.cfg.Project.Root, filepath.FromSlash(abs))
		}
		if n == name && filepath.Dir(abs) == dir && topLevel(sy) {
			return sy.Path, lsp.Position{Line: sy.Line, Col: sy.Col}, true
		}
	}
	return "", lsp.Position{}, false
}

// splitQualified splits "pkg.Name", "Type.Member" and "(*Type).Member"
// at the last dot.
func splitQualified(symbol string) (qual, name string, ok bool) {
	s := strings.NewReplacer("(", "", ")", "", "*", "").Replace(symbol)
	i := strings.LastIndex(s, ".")
	if i <= 0 || i == len(s)-1 {
		return "", s, false
	}
	return s[:i], s[i+1:], true
}

// usesFile is what position needs of a file's syntax: its imports by the
// name they bind, and every identifier and selector with its position.
type usesFile struct {
	fset    *token.FileSet
	file    *ast.File
	text    string
	imports map[string]string // local name -> import path
}

func parseUses(text string) usesFile {
	u := usesFile{fset: token.NewFileSet(), text: text, imports: map[string]string{}}
	u.file, _ = parser.ParseFile(u.fset, "", text, parser.SkipObjectResolution)
	if u.file == nil {
		return u
	}
	for _, im := range u.file.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := importName(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		if name != "_" && name != "." {
			u.imports[name] = p
		}
	}
	return u
}

// importName is the name an import binds without a rename, as far as the
// path tells: its last element, the one before a major-version element
// (example.com/x/v2 -> x), less gopkg.in's suffix (yaml.v3 -> yaml). A
// package named otherwise (go-sqlite3's sqlite3) is still found as
// written, by position's selector step.
func importName(p string) string {
	base := path.Base(p)
	if strings.HasPrefix(base, "v") && len(base) > 1 && strings.Trim(base[1:], "0123456789") == "" && path.Dir(p) != "." {
		base = path.Base(path.Dir(p))
	}
	if i := strings.Index(base, ".v"); i > 0 {
		base = base[:i]
	}
	return base
}

// pos is n's 1-based line and rune column.
func (u usesFile) pos(n token.Pos) lsp.Position {
	p := u.fset.Position(n)
	start := p.Offset - (p.Column - 1)
	return lsp.Position{Line: p.Line, Col: len([]rune(u.text[start:p.Offset])) + 1}
}

// selector is the first qual.name in the file.
func (u usesFile) selector(qual, name string) (lsp.Position, bool) {
	var at lsp.Position
	found := false
	u.inspect(func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok && !found && se.Sel.Name == name {
			if x, ok := se.X.(*ast.Ident); ok && x.Name == qual {
				at, found = u.pos(se.Sel.Pos()), true
			}
		}
		return !found
	})
	return at, found
}

// ident is the first identifier named name.
func (u usesFile) ident(name string) (lsp.Position, bool) {
	var at lsp.Position
	found := false
	u.inspect(func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found && id.Name == name {
			at, found = u.pos(id.Pos()), true
		}
		return !found
	})
	return at, found
}

// members are the positions of every .name selector, at most max.
func (u usesFile) members(name string, max int) []lsp.Position {
	var out []lsp.Position
	u.inspect(func(n ast.Node) bool {
		if se, ok := n.(*ast.SelectorExpr); ok && se.Sel.Name == name && len(out) < max {
			out = append(out, u.pos(se.Sel.Pos()))
		}
		return len(out) < max
	})
	return out
}

func (u usesFile) inspect(fn func(ast.Node) bool) {
	if u.file != nil {
		ast.Inspect(u.file, fn)
	}
}

// memberUse is the first .name in rel whose definition gopls places in
// typ's declaration of name (a method or field of typ).
func (a *Agent) memberUse(ctx context.Context, c *lsp.Client, rel string, f usesFile, typ, name string) (lsp.Position, bool) {
	outlines := map[string][]lsp.Symbol{}
	for _, p := range f.members(name, maxCandidates) {
		locs, err := c.Definition(ctx, rel, p)
		if err != nil || len(locs) == 0 {
			continue
		}
		l := locs[0]
		syms, ok := outlines[l.Path]
		if !ok {
			syms, _ = c.DocumentSymbols(ctx, l.Path)
			outlines[l.Path] = syms
		}
		for _, sy := range syms {
			if sy.Line == l.Range.Start.Line && declares(sy, typ, name) {
				return p, true
			}
		}
	}
	return lsp.Position{}, false
}

// declares reports whether an outline entry is typ's member name: gopls
// names methods "(*T).M" or "T.M" and puts fields under their type.
func declares(sy lsp.Symbol, typ, name string) bool {
	q, n, ok := splitQualified(sy.Name)
	if ok {
		return q == typ && n == name
	}
	return sy.Name == name && sy.Container == typ
}

// topLevel reports whether a workspace symbol is a package-level
// declaration, not a method or field (which gopls names Type.Member).
func topLevel(sy lsp.Symbol) bool {
	switch sy.Kind {
	case "method", "field":
		return false
	}
	return true
}
