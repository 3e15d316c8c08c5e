package mcpbridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
)

// This file shapes the input and output schemas clients see: fixed value
// sets as enums, no type lists, and the declared property order kept.

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

// tidySchemas rewrites a tool's input schema for strict clients: the
// generator writes a Go slice or pointer as type ["null","array"], which
// several clients reject; an optional array is just "array" (leave it out
// for none). results does the same for the result shapes.
func tidySchemas(t *mcp.Tool) {
	if len(t.RawInputSchema) > 0 {
		schema := inputSchema(t)
		dropNullType(schema)
		setInputSchema(t, schema)
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
