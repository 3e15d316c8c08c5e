package compiled

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"

	"trestle/app/eval/evalworker"
)

// pieceKind says where a top-level piece of input goes in the program.
type pieceKind int

const (
	pieceStmt   pieceKind = iota // a statement or expression: into main
	pieceDecl                    // a func, type, var or const declaration: package level
	pieceImport                  // an import declaration
)

// piece is one top-level piece of input, src[start:end], starting at
// line:col (1-based) of the input.
type piece struct {
	kind       pieceKind
	start, end int
	line, col  int
}

// input is one evaluator input, split and parsed.
type input struct {
	src     string
	imports []importDecl
	decls   []decl     // in input order
	stmts   []stmtItem // in input order
	replay  replayed   // earlier inputs its program runs first (history.go)
}

// stmtItem is one statement of main with where it starts in the input.
type stmtItem struct {
	src       string
	line, col int
	node      ast.Stmt
}

// importDecl is one import spec: its explicit name ("" for none), its path
// and where it starts.
type importDecl struct {
	name, path string
	line, col  int
	origin     string // the /*line*/ file name of the input it came from
}

// local is the name the import binds in the file.
func (i importDecl) local() string {
	if i.name != "" {
		return i.name
	}
	return guessPackageName(i.path)
}

// source is the spec as an import declaration.
func (i importDecl) source() string {
	if i.name == "" {
		return "import " + strconv.Quote(i.path)
	}
	return "import " + i.name + " " + strconv.Quote(i.path)
}

// splitInput cuts src at top-level statement boundaries (go/scanner: the
// semicolons the Go grammar inserts at line ends, outside brackets) and
// parses each piece with go/parser. A piece that does not parse is a
// syntax error reported at the input's own line and column.
func splitInput(src string) (*input, error) {
	pieces, err := scanPieces(src)
	if err != nil {
		return nil, err
	}
	in := &input{src: src}
	for _, p := range pieces {
		var err error
		switch p.kind {
		case pieceImport:
			err = in.addImports(p)
		case pieceDecl:
			err = in.addDecl(p)
		default:
			err = in.addStmts(p)
		}
		if err != nil {
			return nil, err
		}
	}
	return in, nil
}

// scanPieces cuts src into its top-level pieces (evalworker.ScanInput).
func scanPieces(src string) ([]piece, error) {
	ps, err := evalworker.ScanInput(src)
	if err != nil {
		return nil, err
	}
	pieces := make([]piece, len(ps))
	for i, p := range ps {
		kind := pieceStmt
		switch p.Kind {
		case evalworker.PieceDecl:
			kind = pieceDecl
		case evalworker.PieceImport:
			kind = pieceImport
		}
		pieces[i] = piece{kind: kind, start: p.Start, end: p.End, line: p.Line, col: p.Col}
	}
	return pieces, nil
}

// wrapped is a piece of input parsed inside prefix and suffix (a package
// clause, a func body), with the arithmetic that maps its positions back to
// the input's lines and columns.
type wrapped struct {
	fset   *token.FileSet
	file   *ast.File
	prefix int // bytes before text
	p      piece
	text   string
}

// parseWrapped parses text wrapped in prefix and suffix; a syntax error is
// reported at the input's position (p is where text starts in the input).
func parseWrapped(p piece, text, prefix, suffix string) (*wrapped, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "input", prefix+text+suffix, parser.SkipObjectResolution)
	w := &wrapped{fset: fset, file: f, prefix: len(prefix), p: p, text: text}
	if err != nil {
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			line, col := w.inputPos(list[0].Pos.Offset)
			return nil, fmt.Errorf("%d:%d: %s", line, col, list[0].Msg)
		}
		return nil, fmt.Errorf("%d:%d: %v", p.line, p.col, err)
	}
	return w, nil
}

// offset is n's offset in text.
func (w *wrapped) offset(pos token.Pos) int {
	return w.fset.Position(pos).Offset - w.prefix
}

// inputPos is the input line and column of offset off of the wrapped source.
func (w *wrapped) inputPos(off int) (line, col int) {
	off -= w.prefix
	off = max(0, min(off, len(w.text)))
	before := w.text[:off]
	nl := strings.Count(before, "\n")
	if nl == 0 {
		return w.p.line, w.p.col + len(before)
	}
	return w.p.line + nl, off - strings.LastIndex(before, "\n")
}

// slice returns the text of n and where it starts in the input.
func (w *wrapped) slice(n ast.Node) (string, int, int) {
	start, end := w.offset(n.Pos()), w.offset(n.End())
	line, col := w.inputPos(start + w.prefix)
	return w.text[start:end], line, col
}

func (in *input) addImports(p piece) error {
	w, err := parseWrapped(p, in.src[p.start:p.end], "package p\n", "\n")
	if err != nil {
		return err
	}
	for _, is := range w.file.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		d := importDecl{path: path, origin: inputFile}
		if is.Name != nil {
			d.name = is.Name.Name
		}
		_, d.line, d.col = w.slice(is)
		in.imports = append(in.imports, d)
	}
	return nil
}

func (in *input) addDecl(p piece) error {
	w, err := parseWrapped(p, in.src[p.start:p.end], "package p\n", "\n")
	if err != nil {
		return err
	}
	for _, d := range w.file.Decls {
		ds, err := declsOf(w, d)
		if err != nil {
			return err
		}
		in.decls = append(in.decls, ds...)
	}
	return nil
}

func (in *input) addStmts(p piece) error {
	w, err := parseWrapped(p, in.src[p.start:p.end], "package p\nfunc _() {\n", "\n}\n")
	if err != nil {
		return err
	}
	body := w.file.Decls[0].(*ast.FuncDecl).Body
	for _, st := range body.List {
		if _, empty := st.(*ast.EmptyStmt); empty {
			continue
		}
		text, line, col := w.slice(st)
		in.stmts = append(in.stmts, stmtItem{src: text, line: line, col: col, node: st})
	}
	return nil
}

// lastExpr is the input's final statement when it is an expression whose
// value is shown, as the interpreter shows it. Declarations after it do not
// count: the value is that of the last statement.
func (in *input) lastExpr() (*ast.ExprStmt, bool) {
	if len(in.stmts) == 0 {
		return nil, false
	}
	es, ok := in.stmts[len(in.stmts)-1].node.(*ast.ExprStmt)
	return es, ok
}

// guessPackageName is the name an import binds without an explicit name:
// the last path element without a major-version suffix (.v3, /v2) or a go-
// prefix. Only used to leave unused imports out; a wrong guess costs a
// rebuild with every import (see build).
func guessPackageName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && isDigits(last[1:]) {
		last = elems[len(elems)-2]
	}
	if i := strings.Index(last, ".v"); i > 0 && isDigits(last[i+2:]) {
		last = last[:i]
	}
	last = strings.TrimPrefix(last, "go-")
	return strings.NewReplacer("-", "_", ".", "_").Replace(last)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
