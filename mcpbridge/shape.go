package mcpbridge

import "fmt"

// A line's shape is checked before anything decodes it: mcp-go decodes a
// call's arguments into map[string]any, where an 8 MB argument of
// `[{},{},...]` becomes 2.8 million maps and a gigabyte of heap before the
// schema can refuse it.
const (
	// maxLineValues is the most JSON values one message may hold (an upper
	// bound counted by shapeOf). A large change set proposal holds a few
	// thousand; decoded, each value costs 100 to 450 bytes.
	maxLineValues = 1 << 16
	// maxLineDepth is the deepest nesting one message may have; Trestle's
	// deepest arguments (a proposal's edits) are seven levels down.
	maxLineDepth = 64
	// decodedValueBytes is what one value costs decoded into map[string]any
	// or []any, at most (measured: 70 to 220 bytes per value as shapeOf
	// counts them).
	decodedValueBytes = 256
	// decodedCopies is how many times a line's bytes are held while it is
	// handled: the line, mcp-go's copy of the raw arguments, their decoded
	// strings, and the tool's typed params.
	decodedCopies = 4
)

// shapeOf counts, without decoding or allocating, an upper bound on the
// values a JSON text holds (every container and every comma-separated
// element or member) and its deepest nesting. It does not validate: what
// is not JSON is refused later, when it is decoded.
func shapeOf(b []byte) (values, depth int) {
	values = 1
	level := 0
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			values++
			level++
			depth = max(depth, level)
		case '}', ']':
			level--
		case ',':
			values++
		}
	}
	return values, depth
}

// lineCost is what handling a line of n bytes holding values values may
// cost the window at most, for the session's budget.
func lineCost(n, values int) int { return decodedCopies*n + decodedValueBytes*values }

// shapeProblem says what is wrong with a line's shape, or "".
func shapeProblem(values, depth int) string {
	switch {
	case values > maxLineValues:
		return fmt.Sprintf("invalid request: the message holds about %d JSON values, more than the %d one message may hold; send smaller arguments (or split the work into several calls)",
			values, maxLineValues)
	case depth > maxLineDepth:
		return fmt.Sprintf("invalid request: the message nests %d levels deep, more than the %d allowed; send flatter arguments", depth, maxLineDepth)
	}
	return ""
}
