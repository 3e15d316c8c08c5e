package mcpbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// This file holds JSON-RPC lines as the sessions write them, and the
// words for a line that is not a good message: an agent reads them, so
// they speak of JSON, never of Go's types.

func marshalLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return errorLine(nil, mcp.INTERNAL_ERROR, "internal error: encode message: "+err.Error())
	}
	return b
}

// errorLine is one JSON-RPC error response.
func errorLine(id any, code int, message string) []byte {
	b, _ := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: mcp.JSONRPC_VERSION, ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return b
}

// jsonErrorCode is the JSON-RPC code for a line json could not decode:
// parse error for bad JSON, invalid request for the wrong shape.
func jsonErrorCode(err error) int {
	var se *json.SyntaxError
	if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) {
		return mcp.PARSE_ERROR
	}
	return mcp.INVALID_REQUEST
}

// jsonErrorMessage says what is wrong with a line in words an agent can
// act on, never in Go's types.
func jsonErrorMessage(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("parse error: the line is not valid JSON (at byte %d); each line must be one JSON-RPC message", se.Offset)
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("invalid request: %s must be %s, not %s", te.Field, article(jsonKind(te.Type.Kind())), article(te.Value))
	case errors.As(err, &te):
		return fmt.Sprintf("invalid request: a JSON-RPC message must be an object, not %s", article(te.Value))
	default:
		return "parse error: the line is not valid JSON; each line must be one JSON-RPC message"
	}
}

// article puts "a" or "an" before a JSON kind.
func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// goTypeError matches encoding/json's type errors, which mcp-go passes on
// in its error messages: "json: cannot unmarshal number into Go struct
// field CallToolRequest.params.name of type string".
var goTypeError = regexp.MustCompile(`json: cannot unmarshal (\w+) into Go (?:struct field [\w]+\.([\w.]+)|value) of type (\S+)`)

// plainError rewrites Go's type errors in a message an agent reads into
// JSON words: "params.name must be a string, not a number".
func plainError(msg string) string {
	return goTypeError.ReplaceAllStringFunc(msg, func(m string) string {
		g := goTypeError.FindStringSubmatch(m)
		field := g[2]
		if field == "" {
			field = "the value"
		}
		return fmt.Sprintf("%s must be %s, not %s", field, article(goTypeKind(g[3])), article(g[1]))
	})
}

// goTypeKind names a Go type, as encoding/json prints it, as JSON does.
func goTypeKind(t string) string {
	switch {
	case t == "string":
		return "string"
	case t == "bool":
		return "boolean"
	case strings.HasPrefix(t, "[]"):
		return "array"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "number"
	default:
		return "object"
	}
}

// jsonKind names a Go kind as JSON does.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Bool:
		return "boolean"
	default:
		return "number"
	}
}

// requestID is the id of a JSON-RPC request line, else nil.
func requestID(line []byte) any {
	var m struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	return m.ID
}

// safeID is the id of a line that may be too big to decode whole: a string
// or number id, else nil. Its other members are scanned, never decoded.
func safeID(line []byte) any {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 || len(m.ID) > 256 || m.ID[0] == '[' || m.ID[0] == '{' {
		return nil
	}
	var id any
	if json.Unmarshal(m.ID, &id) != nil {
		return nil
	}
	return id
}
