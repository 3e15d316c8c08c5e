package evalworker

// The splitter of evaluator input, shared with the compiled path
// (app/eval/compiled): this package is also built on its own, as the
// native worker's loop module (workerbuild), so it imports nothing of
// Trestle's and others import it.

import (
	"fmt"
	"go/scanner"
	"go/token"
	"strings"
)

// PieceKind says what a top-level piece of input is.
type PieceKind int

const (
	PieceStmt   PieceKind = iota // a statement or expression
	PieceDecl                    // a const, type, var or func (or method) declaration
	PieceImport                  // an import declaration
)

// Piece is one top-level piece of the input, src[Start:End], starting at
// Line:Col (1-based).
type Piece struct {
	Kind       PieceKind
	Start, End int
	Line, Col  int
}

// ScanInput cuts src into pieces. It fails, naming the input's line:col, when
// src does not scan, ends inside a bracket or starts with a package
// clause (an input is the inside of a package, not a file).
func ScanInput(src string) ([]Piece, error) {
	pieces, depth, first := cut(src)
	if first != nil {
		return nil, first
	}
	if depth != 0 {
		end := token.NewFileSet().AddFile("input", -1, len(src))
		end.SetLinesForContent([]byte(src))
		p := end.Position(end.Pos(len(src)))
		return nil, fmt.Errorf("%d:%d: unbalanced brackets: the input ends inside ( [ or {", p.Line, p.Column)
	}
	if len(pieces) > 0 && strings.HasPrefix(src[pieces[0].Start:pieces[0].End], "package") {
		return nil, fmt.Errorf("%d:%d: a package clause cannot be evaluated; leave it out", pieces[0].Line, pieces[0].Col)
	}
	return pieces, nil
}

// Pieces cuts src into top-level pieces as ScanInput does, but never
// fails: text being typed (that does not scan, or ends inside a bracket)
// still splits where its brackets say, its last piece running to the end.
// The editor finds the code around the caret with it, so Ctrl+Enter
// evaluates what the evaluator would take as one piece.
func Pieces(src string) []Piece {
	pieces, _, _ := cut(src)
	return pieces
}

// cut is the splitter: the pieces of src, the bracket depth it ends at,
// and the first scan error.
func cut(src string) (pieces []Piece, depth int, first error) {
	fset := token.NewFileSet()
	file := fset.AddFile("input", -1, len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(pos token.Position, msg string) {
		if first == nil {
			first = fmt.Errorf("%d:%d: %s", pos.Line, pos.Column, msg)
		}
	}, 0)
	var toks []token.Token
	start := 0
	header := false // inside the header of a for, if or switch: its ';' are not piece ends
	for {
		pos, tok, lit := s.Scan()
		off := file.Offset(pos)
		switch {
		case depth == 0 && (tok == token.FOR || tok == token.IF || tok == token.SWITCH):
			header = true
		case depth == 0 && tok == token.LBRACE:
			header = false
		}
		if tok == token.SEMICOLON && lit == ";" && header {
			toks = append(toks, tok)
			continue
		}
		if tok == token.EOF || (tok == token.SEMICOLON && depth == 0) {
			if len(toks) > 0 {
				p := file.Position(file.Pos(start))
				pieces = append(pieces, Piece{Kind: classify(toks), Start: start, End: off, Line: p.Line, Col: p.Column})
			}
			toks = toks[:0]
			if tok == token.EOF {
				break
			}
			continue
		}
		depth += bracketDelta(tok)
		if len(toks) == 0 {
			start = off
		}
		toks = append(toks, tok)
	}
	return pieces, depth, first
}

// bracketDelta is how much tok opens (1) or closes (-1) brackets.
func bracketDelta(tok token.Token) int {
	switch tok {
	case token.LPAREN, token.LBRACK, token.LBRACE:
		return 1
	case token.RPAREN, token.RBRACK, token.RBRACE:
		return -1
	}
	return 0
}

// classify tells a piece's kind from its tokens. A func literal statement
// (func() {...}()) is a statement; a named function or a method is a
// declaration.
func classify(toks []token.Token) PieceKind {
	switch toks[0] {
	case token.IMPORT:
		return PieceImport
	case token.CONST, token.TYPE, token.VAR:
		return PieceDecl
	case token.FUNC:
		if isFuncDecl(toks) {
			return PieceDecl
		}
	}
	return PieceStmt
}

// isFuncDecl reports whether toks (starting with func) declare a function
// ("func Name") or a method ("func (r T) Name(").
func isFuncDecl(toks []token.Token) bool {
	if len(toks) < 2 {
		return false
	}
	if toks[1] == token.IDENT {
		return true
	}
	if toks[1] != token.LPAREN {
		return false
	}
	depth := 0
	for i := 1; i < len(toks); i++ {
		depth += bracketDelta(toks[i])
		if depth == 0 {
			return i+2 < len(toks) && toks[i+1] == token.IDENT && toks[i+2] == token.LPAREN
		}
	}
	return false
}
