package search

import "bytes"

// literal finds a fixed byte string fast: it scans for the pattern's
// rarest byte with IndexByte (SIMD) and checks the whole pattern only
// there. Scanning for the first byte, as bytes.Index does, is slow when
// that byte is common in source code ("errors.New(" starts with 'e'). This
// is the memchr-on-a-rare-byte trick ripgrep uses; the standard library
// has no such search, hence our own.
type literal struct {
	pat    []byte
	rare   byte
	offset int // index of rare in pat
}

func newLiteral(pat []byte) *literal {
	l := &literal{pat: pat}
	best := 256
	for i, b := range pat {
		if r := byteRank(b); r <= best {
			best, l.rare, l.offset = r, b, i
		}
	}
	return l
}

// index returns the first index of the pattern in data, or -1.
func (l *literal) index(data []byte) int {
	for pos := l.offset; pos < len(data); {
		i := bytes.IndexByte(data[pos:], l.rare)
		if i < 0 {
			return -1
		}
		start := pos + i - l.offset
		if start+len(l.pat) <= len(data) && bytes.Equal(data[start:start+len(l.pat)], l.pat) {
			return start
		}
		pos += i + 1
	}
	return -1
}

// byteRank guesses how common b is in source code (higher is more
// common), so newLiteral can scan for the rarest byte of a pattern.
func byteRank(b byte) int {
	switch {
	case b == ' ':
		return 255
	case b == 'e' || b == 't' || b == '\n' || b == '\t':
		return 250
	case b == 'a' || b == 'o' || b == 'i' || b == 'n' || b == 's' || b == 'r':
		return 240
	case b >= 'a' && b <= 'z':
		return 200
	case b == '.' || b == '(' || b == ')' || b == ',' || b == '"' || b == '_' || b == '=' || b == '/':
		return 160
	case b == '*' || b == '&' || b == '{' || b == '}' || b == '[' || b == ']' || b == ':' || b == ';' ||
		b == '-' || b == '+' || b == '\'' || b == '<' || b == '>' || b == '!':
		return 140 // Go's pointers, blocks, slices and operators
	case b >= '0' && b <= '9':
		return 130
	case b >= 'A' && b <= 'Z':
		return 110
	case b < 0x80:
		return 90
	default:
		return 50 // non-ASCII bytes are rare in Go source
	}
}
