package projconf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// jsonFrame is one open object or array while walking tokens.
type jsonFrame struct {
	object  bool
	key     string // object: the key of the current value
	wantKey bool   // object: the next string is a key
	index   int    // array: the index of the current value
}

// pathAt returns the dotted key path ("tasks.x.command", "selections.a.tags[1]")
// of the value the decoder had just read when it reached offset, or
// "the top level". encoding/json leaves map keys out of its error's Field,
// so the path is rebuilt from the tokens.
func pathAt(data []byte, offset int) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []jsonFrame
	for {
		tok, err := dec.Token()
		if err != nil {
			return framePath(stack)
		}
		if top := len(stack) - 1; top >= 0 && stack[top].object && stack[top].wantKey {
			if key, ok := tok.(string); ok {
				stack[top].key, stack[top].wantKey = key, false
				continue
			}
		}
		if int(dec.InputOffset()) >= offset {
			return framePath(stack)
		}
		stack = step(stack, tok)
	}
}

// step updates the open frames after a value token or a delimiter.
func step(stack []jsonFrame, tok json.Token) []jsonFrame {
	switch tok {
	case json.Delim('{'):
		return append(stack, jsonFrame{object: true, wantKey: true})
	case json.Delim('['):
		return append(stack, jsonFrame{})
	case json.Delim('}'), json.Delim(']'):
		stack = stack[:len(stack)-1]
	}
	if top := len(stack) - 1; top >= 0 {
		if stack[top].object {
			stack[top].wantKey = true
		} else {
			stack[top].index++
		}
	}
	return stack
}

func framePath(stack []jsonFrame) string {
	var b strings.Builder
	for _, f := range stack {
		switch {
		case f.object && !f.wantKey:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		case !f.object:
			fmt.Fprintf(&b, "[%d]", f.index)
		}
	}
	if b.Len() == 0 {
		return "the top level"
	}
	return b.String()
}
