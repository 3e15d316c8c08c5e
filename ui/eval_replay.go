package ui

import (
	"go/scanner"
	"go/token"
)

// definesState reports whether an interpreted input defines state that a
// fresh evaluator would lack, so that Replay sends it again: a top-level
// import, var, const, type or func declaration, or an assignment anywhere
// (:=, =, op=, ++, --). It reads tokens with go/scanner. Pure: any goroutine.
func definesState(code string) bool {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(code))
	var s scanner.Scanner
	s.Init(file, []byte(code), nil, 0)
	depth, start := 0, true
	for {
		_, tok, _ := s.Scan()
		switch {
		case tok == token.EOF:
			return false
		case tok == token.DEFINE || tok == token.INC || tok == token.DEC || tok.IsOperator() && isAssign(tok):
			return true
		case start && depth == 0 && (tok == token.IMPORT || tok == token.VAR || tok == token.CONST || tok == token.TYPE):
			return true
		case start && depth == 0 && tok == token.FUNC:
			if _, next, _ := s.Scan(); next == token.IDENT || next == token.LPAREN {
				return true // a function or a method (a func literal call starts with "(" too: replaying it is harmless)
			}
		}
		switch tok {
		case token.LBRACE, token.LPAREN, token.LBRACK:
			depth++
		case token.RBRACE, token.RPAREN, token.RBRACK:
			depth--
		}
		start = tok == token.SEMICOLON
	}
}

// isAssign: = and the op= tokens.
func isAssign(tok token.Token) bool {
	switch tok {
	case token.ASSIGN, token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN,
		token.AND_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN, token.AND_NOT_ASSIGN:
		return true
	}
	return false
}
