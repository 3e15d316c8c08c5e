package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// This file holds what every tool's arguments go through before its
// handler sees them: they are checked against the tool's input schema (see
// schema.go), then decoded into the tool's params struct. A mistake is
// named by the argument's name ("path must be a string"), never by a Go type.

// checked wraps a tool's handler so that every call's arguments are
// checked against its input schema first; a mismatch is a problem result
// naming the argument.
func checked(t server.ServerTool) server.ServerTool {
	schema := inputSchema(&t.Tool)
	inner := t.Handler
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if args == nil {
			args = map[string]any{}
		}
		if msg := checkValue(schema, args, ""); msg != "" {
			return fail(stateProblem, "%s", msg), nil
		}
		return inner(ctx, req)
	}
	return t
}

// checkValue checks v against schema (the subset of JSON Schema our
// generated schemas use: type, properties, required, additionalProperties,
// items, enum) and returns what is wrong, naming the argument at path, or "".
func checkValue(schema *jsonschema.Schema, v any, path string) string {
	name := path
	if name == "" {
		name = "the arguments"
	}
	if schema.Type != "" && !isType(v, schema.Type) {
		return fmt.Sprintf("%s must be %s", name, typeWords(schema.Type))
	}
	if len(schema.Enum) > 0 && !slices.Contains(schema.Enum, v) {
		return fmt.Sprintf("%s must be one of %s, not %s", name, joinValues(schema.Enum), quoteValue(v))
	}
	switch val := v.(type) {
	case map[string]any:
		return checkObject(schema, val, path)
	case []any:
		for i, item := range val {
			if schema.Items == nil {
				break
			}
			if msg := checkValue(schema.Items, item, path+"["+strconv.Itoa(i)+"]"); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func checkObject(schema *jsonschema.Schema, obj map[string]any, path string) string {
	names := propertyNames(schema)
	if ap := schema.AdditionalProperties; ap != nil && ap.Not != nil {
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if _, known := schema.Properties[k]; !known {
				return unknownArgument(k, path, names)
			}
		}
	}
	for _, n := range names {
		v, ok := obj[n]
		if !ok || v == nil { // null is as good as leaving an optional argument out
			continue
		}
		if msg := checkValue(schema.Properties[n], v, join(path, n)); msg != "" {
			return msg
		}
	}
	for _, n := range schema.Required {
		if obj[n] == nil {
			return fmt.Sprintf("%s is required", join(path, n))
		}
	}
	return ""
}

// propertyNames lists an object schema's properties in declared order.
func propertyNames(schema *jsonschema.Schema) []string {
	names := slices.Clone(schema.PropertyOrder)
	for _, n := range slices.Sorted(maps.Keys(schema.Properties)) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

func unknownArgument(k, path string, allowed []string) string {
	where := ""
	if path != "" {
		where = " in " + path
	}
	if len(allowed) == 0 {
		return fmt.Sprintf("unknown argument %q%s; this tool takes no arguments, call it with {}", k, where)
	}
	return fmt.Sprintf("unknown argument %q%s; allowed: %s", k, where, strings.Join(allowed, ", "))
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func isType(v any, ty string) bool {
	switch ty {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := number(v)
		return ok
	case "integer":
		f, ok := number(v)
		return ok && f == math.Trunc(f) && math.Abs(f) < 1<<53
	}
	return true
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

func typeWords(ty string) string {
	switch ty {
	case "object":
		return "an object"
	case "array":
		return "an array"
	case "string":
		return "a string"
	case "boolean":
		return "true or false"
	case "integer":
		return "a whole number"
	case "number":
		return "a number"
	}
	return ty
}

func joinValues(vs []any) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = quoteValue(v)
	}
	return strings.Join(out, ", ")
}

func quoteValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// decodeArgs decodes a call's arguments (raw JSON, or a decoded value)
// into T. Errors name the argument
// and what it must be, never a Go type.
func decodeArgs[T any](args any, into *T) string {
	if args == nil {
		return ""
	}
	raw, ok := args.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			return "the arguments are not valid JSON"
		}
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return decodeProblem(err)
	}
	return ""
}

// decodeProblem says what is wrong with an argument json refused.
func decodeProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		name := te.Field
		if name == "" {
			name = "the arguments"
		}
		return fmt.Sprintf("%s must be %s", name, kindWords(te.Type))
	}
	return "the arguments must be a JSON object"
}

func kindWords(t reflect.Type) string {
	if t == nil {
		return "something else"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "something else"
}
