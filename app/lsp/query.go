package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Definition is where the identifier at pos in path is declared.
func (c *Client) Definition(ctx context.Context, path string, pos Position) ([]Location, error) {
	p, err := c.at(path, pos)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := c.request(ctx, "textDocument/definition", p, &raw); err != nil {
		return nil, err
	}
	return c.locations(raw), nil
}

// References are the uses of the identifier at pos in path, its
// declaration included when decl is set, sorted by place.
func (c *Client) References(ctx context.Context, path string, pos Position, decl bool) ([]Location, error) {
	p, err := c.at(path, pos)
	if err != nil {
		return nil, err
	}
	params := referenceParams{textDocumentPosition: p}
	params.Context.IncludeDeclaration = decl
	var raw json.RawMessage
	if err := c.request(ctx, "textDocument/references", params, &raw); err != nil {
		return nil, err
	}
	locs := c.locations(raw)
	sort.Slice(locs, func(i, j int) bool {
		a, b := locs[i], locs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Range.Start.Line != b.Range.Start.Line {
			return a.Range.Start.Line < b.Range.Start.Line
		}
		return a.Range.Start.Col < b.Range.Start.Col
	})
	return locs, nil
}

// locations decodes a Location, a []Location or null.
func (c *Client) locations(raw json.RawMessage) []Location {
	var many []location
	if json.Unmarshal(raw, &many) != nil {
		var one location
		if json.Unmarshal(raw, &one) != nil || one.URI == "" {
			return nil
		}
		many = []location{one}
	}
	out := make([]Location, 0, len(many))
	texts := c.texts()
	for _, l := range many {
		out = append(out, texts.location(l))
	}
	return out
}

// Hover is what gopls says about an identifier: its declaration and doc.
type Hover struct {
	Text  string `json:"text"`
	Range *Range `json:"range,omitempty"`
}

// Hover is the type and documentation of the identifier at pos; an empty
// Text when there is none.
func (c *Client) Hover(ctx context.Context, path string, pos Position) (Hover, error) {
	p, text, err := c.atText(path, pos)
	if err != nil {
		return Hover{}, err
	}
	var res *hoverResult
	if err := c.request(ctx, "textDocument/hover", p, &res); err != nil || res == nil {
		return Hover{}, err
	}
	h := Hover{Text: strings.TrimSpace(res.Contents.Value)}
	if res.Range != nil {
		r := c.fromRange(text, *res.Range)
		h.Range = &r
	}
	return h, nil
}

// Completion is one candidate at a position.
type Completion struct {
	Label  string `json:"label"`
	Kind   string `json:"kind"`
	Detail string `json:"detail,omitempty"`
	// Insert replaces Replace (the partial word before the caret).
	Insert  string `json:"insert"`
	Replace Range  `json:"replace"`
}

// Completions are gopls's candidates at pos, best first.
func (c *Client) Completions(ctx context.Context, path string, pos Position) ([]Completion, error) {
	p, text, err := c.atText(path, pos)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := c.request(ctx, "textDocument/completion", p, &raw); err != nil {
		return nil, err
	}
	var list completionList
	if json.Unmarshal(raw, &list) != nil || list.Items == nil {
		json.Unmarshal(raw, &list.Items)
	}
	sort.SliceStable(list.Items, func(i, j int) bool { return list.Items[i].SortText < list.Items[j].SortText })
	out := make([]Completion, 0, len(list.Items))
	for _, it := range list.Items {
		cp := Completion{Label: it.Label, Kind: completionKinds[it.Kind], Detail: it.Detail, Insert: it.InsertText,
			Replace: Range{Start: pos, End: pos}}
		if it.TextEdit != nil {
			cp.Insert, cp.Replace = it.TextEdit.NewText, c.fromRange(text, it.TextEdit.Range)
		}
		if cp.Insert == "" {
			cp.Insert = it.Label
		}
		out = append(out, cp)
	}
	return out, nil
}

// Symbol is a declaration found by a symbol search or a file's outline.
type Symbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Detail    string `json:"detail,omitempty"`
	Container string `json:"container,omitempty"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Col       int    `json:"column"`
	EndLine   int    `json:"end_line,omitempty"`
	// Receiver is a method's receiver type as written ("*Bucket"),
	// TypeParams a generic function's or type's type parameters as written
	// ("[S ~[]E, E any]"), and Doc the declaration's doc comment:
	// PackageAPI fills them from the syntax.
	Receiver   string `json:"receiver,omitempty"`
	TypeParams string `json:"type_params,omitempty"`
	Doc        string `json:"doc,omitempty"`
}

// Symbols is gopls's fuzzy workspace symbol search for query.
func (c *Client) Symbols(ctx context.Context, query string) ([]Symbol, error) {
	var res []symbolInformation
	if err := c.request(ctx, "workspace/symbol", map[string]string{"query": query}, &res); err != nil {
		return nil, err
	}
	out := make([]Symbol, 0, len(res))
	texts := c.texts()
	for _, si := range res {
		l := texts.location(si.Location)
		out = append(out, Symbol{Name: si.Name, Kind: symbolKinds[si.Kind], Container: si.ContainerName,
			Path: l.Path, Line: l.Range.Start.Line, Col: l.Range.Start.Col, EndLine: l.Range.End.Line})
	}
	return out, nil
}

// DocumentSymbols is the outline of path: every declaration, children
// after their parent with the parent as container. An outline depends on
// the file's text alone, so it is kept with the text and a text asked
// about again is answered without gopls.
func (c *Client) DocumentSymbols(ctx context.Context, path string) ([]Symbol, error) {
	c.keepOpenFor(path)
	rel := c.rel(c.abs(path))
	text, err := c.lines(path)
	cache := err == nil
	if err != nil {
		text = newLines("")
	}
	if o := text.outline.Load(); o != nil && o.rel == rel {
		return slices.Clone(o.syms), nil
	}
	var res []documentSymbol
	params := map[string]any{"textDocument": textDocumentID{URI: fileURI(c.abs(path))}}
	if err := c.request(ctx, "textDocument/documentSymbol", params, &res); err != nil {
		return nil, err
	}
	if now, err := c.lines(path); err == nil && now != text {
		text, cache = now, false // changed meanwhile: gopls answered for the text it had at the request
	}
	var out []Symbol
	var walk func(ds []documentSymbol, container string)
	walk = func(ds []documentSymbol, container string) {
		for _, d := range ds {
			r := c.fromRange(text, d.SelectionRange)
			full := c.fromRange(text, d.Range)
			out = append(out, Symbol{Name: d.Name, Kind: symbolKinds[d.Kind], Detail: d.Detail, Container: container,
				Path: rel, Line: r.Start.Line, Col: r.Start.Col, EndLine: full.End.Line})
			walk(d.Children, d.Name)
		}
	}
	walk(res, "")
	if cache {
		text.outline.Store(&outline{rel: rel, syms: slices.Clone(out)})
	}
	return out, nil
}

// Locate finds the declaration of symbol in path's outline: a name
// ("Open"), a method or field with its type ("DB.Close", "(*DB).Close",
// "Options.Timeout"). Its error says which names the file has when none
// matches.
func (c *Client) Locate(ctx context.Context, path, symbol string) (Position, error) {
	syms, err := c.DocumentSymbols(ctx, path)
	if err != nil {
		return Position{}, err
	}
	want := normalizeSymbol(symbol)
	for _, s := range syms {
		if normalizeSymbol(s.Name) == want || (s.Container != "" && normalizeSymbol(s.Container+"."+s.Name) == want) {
			return Position{Line: s.Line, Col: s.Col}, nil
		}
	}
	for _, s := range syms { // a bare method or field name, when it is unique
		if strings.HasSuffix(normalizeSymbol(s.Name), "."+want) {
			return Position{Line: s.Line, Col: s.Col}, nil
		}
	}
	names := make([]string, 0, min(len(syms), 20))
	for _, s := range syms[:min(len(syms), 20)] {
		names = append(names, s.Name)
	}
	return Position{}, fmt.Errorf("no symbol %q is declared in %s (it declares: %s)", symbol, c.rel(c.abs(path)), strings.Join(names, ", "))
}

// normalizeSymbol turns "(*DB).Close" and "(DB).Close" into "DB.Close".
func normalizeSymbol(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") {
		if i := strings.Index(s, ")"); i > 0 {
			s = strings.TrimPrefix(s[1:i], "*") + s[i+1:]
		}
	}
	return strings.TrimPrefix(s, "*")
}

// Signature is the call's signature at a position, for the editor's hint.
type Signature struct {
	Label string `json:"label"`           // "func Open(path string, mode os.FileMode) (*DB, error)"
	Doc   string `json:"doc,omitempty"`   // its documentation
	Param string `json:"param,omitempty"` // the parameter being typed, as the label shows it
}

// SignatureHelp is the signature of the call around pos; an empty Label
// outside a call.
func (c *Client) SignatureHelp(ctx context.Context, path string, pos Position) (Signature, error) {
	p, err := c.at(path, pos)
	if err != nil {
		return Signature{}, err
	}
	var res *struct {
		Signatures []struct {
			Label         string          `json:"label"`
			Documentation json.RawMessage `json:"documentation"`
			Parameters    []struct {
				Label json.RawMessage `json:"label"` // a string or [start, end] offsets
			} `json:"parameters"`
			ActiveParameter *int `json:"activeParameter"`
		} `json:"signatures"`
		ActiveSignature int `json:"activeSignature"`
		ActiveParameter int `json:"activeParameter"`
	}
	if err := c.request(ctx, "textDocument/signatureHelp", p, &res); err != nil || res == nil || len(res.Signatures) == 0 {
		return Signature{}, err
	}
	sig := res.Signatures[min(max(res.ActiveSignature, 0), len(res.Signatures)-1)]
	out := Signature{Label: sig.Label, Doc: markupText(sig.Documentation)}
	active := res.ActiveParameter
	if sig.ActiveParameter != nil {
		active = *sig.ActiveParameter
	}
	if active >= 0 && active < len(sig.Parameters) {
		var name string
		var span [2]int
		raw := sig.Parameters[active].Label
		if json.Unmarshal(raw, &name) == nil {
			out.Param = name
		} else if json.Unmarshal(raw, &span) == nil && span[0] <= span[1] && span[1] <= len(utf16Units(sig.Label)) {
			out.Param = string(utf16Decode(utf16Units(sig.Label)[span[0]:span[1]]))
		}
	}
	return out, nil
}

// markupText is the text of a string or MarkupContent.
func markupText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m markupContent
	json.Unmarshal(raw, &m)
	return m.Value
}
