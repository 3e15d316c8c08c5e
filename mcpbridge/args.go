package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
// handler sees them: the input schema, tidied for strict clients and given
// its fixed value sets, is checked against the call's arguments, and the
// arguments are then decoded into the tool's params struct. A mistake is
// named by the argument's name ("path must be a string"), never by a Go type.

// withEnum makes the argument at path (property names, dotted; an array's
// items are passed through, so "changes.action" is each change's action)
// one of values, in the schema clients see and in the check every call
// gets. It must follow mcp.WithInputSchema.
func withEnum(path string, values ...string) mcp.ToolOption {
	return func(t *mcp.Tool) {
		schema := inputSchema(t)
		prop := schema
		for _, name := range strings.Split(path, ".") {
			if prop.Items != nil {
				prop = prop.Items
			}
			next, ok := prop.Properties[name]
			if !ok {
				panic(fmt.Sprintf("%s: no argument %q for an enum", t.Name, path))
			}
			prop = next
		}
		prop.Enum = nil
		for _, v := range values {
			prop.Enum = append(prop.Enum, v)
		}
		setInputSchema(t, schema)
	}
}

// inputSchema decodes a tool's input schema (declared property order kept).
func inputSchema(t *mcp.Tool) *jsonschema.Schema {
	var schema jsonschema.Schema
	if err := json.Unmarshal(t.RawInputSchema, &schema); err != nil {
		panic(fmt.Sprintf("%s: input schema: %v", t.Name, err))
	}
	recordOrder(t.RawInputSchema, &schema)
	return &schema
}

// recordOrder sets PropertyOrder in s, and the schemas under it, to the
// order of the properties in raw, which decoding alone forgets.
func recordOrder(raw json.RawMessage, s *jsonschema.Schema) {
	var parts struct {
		Properties orderedObject   `json:"properties"`
		Items      json.RawMessage `json:"items"`
	}
	if s == nil || json.Unmarshal(raw, &parts) != nil {
		return
	}
	s.PropertyOrder = nil
	for _, kv := range parts.Properties {
		s.PropertyOrder = append(s.PropertyOrder, kv.key)
		recordOrder(kv.value, s.Properties[kv.key])
	}
	if len(parts.Items) > 0 {
		recordOrder(parts.Items, s.Items)
	}
}

// orderedObject is a JSON object's members in order.
type orderedObject []struct {
	key   string
	value json.RawMessage
}

func (o *orderedObject) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("not an object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*o = append(*o, struct {
			key   string
			value json.RawMessage
		}{key, v})
	}
	return nil
}

func setInputSchema(t *mcp.Tool, schema *jsonschema.Schema) {
	raw, err := json.Marshal(schema)
	if err != nil {
		panic(fmt.Sprintf("%s: input schema: %v", t.Name, err))
	}
	t.RawInputSchema = raw
}

// tidySchemas rewrites a tool's schemas for strict clients: the generator
// writes a Go slice or pointer as type ["null","array"], which several
// clients reject; an optional array is just "array" (leave it out for none).
func tidySchemas(t *mcp.Tool) {
	if len(t.RawInputSchema) > 0 {
		schema := inputSchema(t)
		dropNullType(schema)
		setInputSchema(t, schema)
	}
	for _, p := range t.OutputSchema.Properties {
		dropNullTypes(p)
	}
}

func dropNullType(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		kept := slices.DeleteFunc(slices.Clone(s.Types), func(ty string) bool { return ty == "null" })
		if len(kept) == 1 {
			s.Type, s.Types = kept[0], nil
		} else {
			s.Types = kept
		}
	}
	dropNullType(s.Items)
	for _, p := range s.Properties {
		dropNullType(p)
	}
}

func dropNullTypes(schema any) {
	switch s := schema.(type) {
	case map[string]any:
		if types, ok := s["type"].([]any); ok {
			var kept []any
			for _, ty := range types {
				if ty != "null" {
					kept = append(kept, ty)
				}
			}
			if len(kept) == 1 {
				s["type"] = kept[0]
			} else {
				s["type"] = kept
			}
		}
		for _, v := range s {
			dropNullTypes(v)
		}
	case []any:
		for _, v := range s {
			dropNullTypes(v)
		}
	}
}

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
		for _, k := range sortedKeys(obj) {
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
	for _, n := range sortedKeys(schema.Properties) {
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
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

// decodeArgs decodes a call's arguments into T. Errors name the argument
// and what it must be, never a Go type.
func decodeArgs[T any](args any, into *T) string {
	if args == nil {
		return ""
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return "the arguments are not valid JSON"
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
