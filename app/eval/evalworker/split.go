package evalworker

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// chunkKind says how a top-level piece of input is evaluated.
type chunkKind int

const (
	kindStmt   chunkKind = iota // a statement or expression: evaluated inside yaegi's main wrapper
	kindDecl                    // const, type, var or func declaration: evaluated as a file
	kindImport                  // an import declaration: evaluated first
)

// chunk is one top-level piece of the input: src[start:end].
type chunk struct {
	kind       chunkKind
	start, end int
}

// plan is how one input is evaluated: its imports first, then its other
// pieces in groups of the same kind, in their order.
type plan struct {
	whole     bool     // evaluate src unchanged (a package clause, or it did not scan)
	imports   []string // the import declarations' source
	groups    []group  // one Eval each, padded so that lines and columns match the input
	lastExpr  bool     // the last non-import piece is an expression whose value is shown
	lastDeref bool     // that expression is *x (see nilDeref)
	// lastCallee is the source of the function that expression calls, when
	// it is a name or a selector of names (f, pkg.F, x.M): its type tells
	// whether the call has a value (see run).
	lastCallee string
	defines    bool // some piece declares, assigns or imports: replaying it rebuilds state
}

// group is the source of one Eval: a run of pieces of one kind, with
// everything before it blanked so that positions are the input's.
type group struct {
	src  string
	kind chunkKind
	lead int // bytes put before the group's first line (see groupChunks)
}

// planInput splits src at top-level statement boundaries. yaegi wants imports
// first and decides between file and statement mode from the first token, so
// imports are pulled to the front and the rest is grouped by kind.
func planInput(src string) plan {
	chunks, ok := scanChunks(src)
	if !ok {
		return plan{whole: true}
	}
	var p plan
	masked := []byte(src)
	var rest []chunk
	for _, c := range chunks {
		if c.kind != kindImport {
			rest = append(rest, c)
			continue
		}
		p.imports = append(p.imports, src[c.start:c.end])
		blank(masked[c.start:c.end])
	}
	p.groups = groupChunks(string(masked), rest)
	p.defines = len(p.imports) > 0
	for _, c := range rest {
		p.defines = p.defines || c.kind == kindDecl || definesState(src[c.start:c.end])
	}
	if len(rest) > 0 {
		last := rest[len(rest)-1]
		e, err := parser.ParseExpr(src[last.start:last.end])
		p.lastExpr = err == nil
		for paren, ok := e.(*ast.ParenExpr); ok; paren, ok = e.(*ast.ParenExpr) {
			e = paren.X // not ast.Unparen: the native worker builds with the project's Go
		}
		_, p.lastDeref = e.(*ast.StarExpr)
		if call, ok := e.(*ast.CallExpr); ok && plainName(call.Fun) {
			off := last.start + int(call.Fun.Pos()) - 1
			p.lastCallee = src[off : off+int(call.Fun.End()-call.Fun.Pos())]
		}
	}
	return p
}

// plainName reports whether e is a name or a selector of names, in
// parentheses or not: evaluating it runs nothing.
func plainName(e ast.Expr) bool {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.Ident:
			return true
		default:
			return false
		}
	}
}

// blank replaces everything but newlines with spaces, keeping positions.
func blank(b []byte) {
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
}

// groupChunks joins runs of chunks of the same kind, each run preceded by
// the input before it blanked (newlines kept), so that yaegi's line and
// column numbers are the input's, except for the wrapper yaegi puts on the
// first line (see wrapOffset). A statement group that starts with a func
// literal (func() { ... }() and then x) gets a ";" first: yaegi takes
// source that starts with "func" for a file of declarations, which runs
// the call but loses the value of the group's last expression.
func groupChunks(src string, chunks []chunk) []group {
	var groups []group
	for i := 0; i < len(chunks); {
		j := i + 1
		for j < len(chunks) && chunks[j].kind == chunks[i].kind {
			j++
		}
		start, end := chunks[i].start, chunks[j-1].end
		pad := []byte(src[:start])
		blank(pad)
		g := group{src: string(pad) + src[start:end], kind: chunks[i].kind}
		if g.kind == kindStmt && strings.HasPrefix(src[start:end], "func") {
			g.src, g.lead = ";"+g.src, 1
		}
		groups = append(groups, g)
		i = j
	}
	return groups
}

// scanChunks cuts src into its top-level pieces (ScanInput). It reports
// false when src does not scan, has unbalanced brackets or starts with a
// package clause: yaegi then gets the input as it is and reports the
// problem itself.
func scanChunks(src string) ([]chunk, bool) {
	ps, err := ScanInput(src)
	if err != nil {
		return nil, false
	}
	chunks := make([]chunk, len(ps))
	for i, p := range ps {
		kind := kindStmt
		switch p.Kind {
		case PieceDecl:
			kind = kindDecl
		case PieceImport:
			kind = kindImport
		}
		chunks[i] = chunk{kind: kind, start: p.Start, end: p.End}
	}
	return chunks, true
}

// definesState reports whether a statement may change state, so that a
// replay must repeat it: it declares or assigns (x := 1, x = 2, x++, var
// x int), or it is anything but an expression that only computes a value
// (a call may change what it is called on or a package's state:
// sb.WriteString("a"), os.Setenv; a loop or an if may assign inside).
// Only an expression without a call or a receive is left out (x + 1,
// a.Balance).
func definesState(stmt string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p; func _() {\n"+stmt+"\n}", 0)
	if err != nil || len(f.Decls) == 0 {
		return false
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	if body == nil || len(body.List) == 0 {
		return false
	}
	switch st := body.List[0].(type) {
	case *ast.EmptyStmt:
		return false
	case *ast.ExprStmt:
		return acts(st.X)
	}
	return true
}

// acts reports whether an expression calls something or receives.
func acts(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.FuncLit:
			return false // a func value computed is not called
		}
		return !found
	})
	return found
}

// importSpec is one import: its local name ("" for the default) and path.
type importSpec struct {
	name, path string
}

// source is the spec as a one-line import declaration.
func (s importSpec) source() string {
	if s.name == "" {
		return "import " + strconv.Quote(s.path)
	}
	return "import " + s.name + " " + strconv.Quote(s.path)
}

// parseImports returns the specs of import declarations.
func parseImports(decls []string) ([]importSpec, error) {
	src := "package p\n" + strings.Join(decls, "\n")
	f, err := parser.ParseFile(token.NewFileSet(), "input", src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	specs := make([]importSpec, 0, len(f.Imports))
	for _, is := range f.Imports {
		specs = append(specs, specOf(is))
	}
	return specs, nil
}

func specOf(is *ast.ImportSpec) importSpec {
	path, _ := strconv.Unquote(is.Path.Value)
	s := importSpec{path: path}
	if is.Name != nil {
		s.name = is.Name.Name
	}
	return s
}
