package lsp

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// FileEdit is one file's text before and after an edit gopls computed.
// Path is project-relative for files in the project, else absolute.
type FileEdit struct {
	Path string
	Old  string
	New  string
}

// Rename computes renaming the identifier at pos in path to newName, as
// gopls would do it across the workspace, and returns every file it
// touches with its old and new text. It changes nothing.
func (c *Client) Rename(ctx context.Context, path string, pos Position, newName string) ([]FileEdit, error) {
	p, err := c.at(path, pos)
	if err != nil {
		return nil, err
	}
	var we workspaceEdit
	if err := c.request(ctx, "textDocument/rename", renameParams{textDocumentPosition: p, NewName: newName}, &we); err != nil {
		return nil, err
	}
	return c.applyWorkspaceEdit(we)
}

// applyWorkspaceEdit computes each touched file's new text.
func (c *Client) applyWorkspaceEdit(we workspaceEdit) ([]FileEdit, error) {
	byURI := map[string][]textEdit{}
	for uri, edits := range we.Changes {
		byURI[uri] = append(byURI[uri], edits...)
	}
	for _, dc := range we.DocumentChanges {
		if dc.Kind != "" {
			return nil, fmt.Errorf("gopls's edit %ss a file, which Trestle does not propose", dc.Kind)
		}
		byURI[dc.TextDocument.URI] = append(byURI[dc.TextDocument.URI], dc.Edits...)
	}
	out := make([]FileEdit, 0, len(byURI))
	for uri, edits := range byURI {
		abs := uriPath(uri)
		old, err := c.lines(abs)
		if err != nil {
			return nil, err
		}
		out = append(out, FileEdit{Path: c.rel(abs), Old: old.text, New: applyEdits(old, edits)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// applyEdits applies non-overlapping protocol edits to text.
func applyEdits(l *lines, edits []textEdit) string {
	text := l.text
	type span struct {
		start, end int
		new        string
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		spans = append(spans, span{offsetOf(l, e.Range.Start), offsetOf(l, e.Range.End), e.NewText})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	last := 0
	for _, s := range spans {
		if s.start < last {
			continue // overlapping: gopls never sends these
		}
		b.WriteString(text[last:s.start])
		b.WriteString(s.new)
		last = s.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// Format is path's text formatted by gopls (gofmt) with its imports
// organized; the text as it is when there is nothing to change.
func (c *Client) Format(ctx context.Context, path string) (string, error) {
	orig, err := c.lines(path)
	if err != nil {
		return "", err
	}
	text := orig.text
	uri := fileURI(c.abs(path))
	var ca codeActionParams
	ca.TextDocument = textDocumentID{URI: uri}
	ca.Range = lspRange{End: toProtocol(orig, Position{Line: orig.count(), Col: 1})}
	ca.Context.Diagnostics = []lspDiagnostic{}
	ca.Context.Only = []string{"source.organizeImports"}
	var actions []codeAction
	if err := c.request(ctx, "textDocument/codeAction", ca, &actions); err != nil {
		return "", err
	}
	for _, a := range actions {
		if a.Edit == nil {
			continue
		}
		for _, dc := range a.Edit.DocumentChanges {
			if dc.TextDocument.URI == uri {
				text = applyEdits(newLines(text), dc.Edits)
			}
		}
		text = applyEdits(newLines(text), a.Edit.Changes[uri])
		break
	}
	var fp formattingParams
	fp.TextDocument = textDocumentID{URI: uri}
	fp.Options.TabSize = 4
	var edits []textEdit
	// Formatting is computed on gopls's copy, so it must see the imports first.
	if text != orig.text {
		c.OpenDocument(c.rel(c.abs(path)), text)
	}
	if err := c.request(ctx, "textDocument/formatting", fp, &edits); err != nil {
		return "", err
	}
	return applyEdits(newLines(text), edits), nil
}

// PackageAPI is a package's exported declarations as gopls lists them.
type PackageAPI struct {
	Name    string   `json:"name"`
	Files   []string `json:"files"`
	Symbols []Symbol `json:"symbols"`
}

// PackageAPI is the exported API of the package that file belongs to, from
// gopls's package_symbols command: exported types, functions, methods,
// fields, constants and variables with their signatures.
func (c *Client) PackageAPI(ctx context.Context, file string) (PackageAPI, error) {
	params := map[string]any{"command": "gopls.package_symbols",
		"arguments": []any{map[string]string{"URI": fileURI(c.abs(file))}}}
	var res struct {
		PackageName string
		Files       []string
		Symbols     []packageSymbol
	}
	if err := c.request(ctx, "workspace/executeCommand", params, &res); err != nil {
		return PackageAPI{}, err
	}
	api := PackageAPI{Name: res.PackageName, Symbols: []Symbol{}}
	texts := make([]*lines, len(res.Files))
	decls := make([]map[declKey]declSyntax, len(res.Files))
	for i, uri := range res.Files {
		abs := uriPath(uri)
		api.Files = append(api.Files, c.rel(abs))
		var err error
		if texts[i], err = c.lines(abs); err != nil {
			texts[i] = newLines("")
		}
		decls[i] = parseDecls(texts[i].text)
	}
	var add func(d packageSymbol, container string)
	add = func(d packageSymbol, container string) {
		file := d.File
		if !exported(d.Name) || file < 0 || file >= len(texts) {
			return
		}
		r := c.fromRange(texts[file], d.SelectionRange)
		full := c.fromRange(texts[file], d.Range)
		sy := Symbol{Name: d.Name, Kind: symbolKinds[d.Kind], Detail: d.Detail,
			Container: container, Path: api.Files[file], Line: r.Start.Line, Col: r.Start.Col, EndLine: full.End.Line}
		if ds, ok := decls[file][declKey{sy.Line, sy.Name}]; ok {
			sy.Doc, sy.Receiver, sy.TypeParams = strings.TrimSpace(ds.doc), ds.recv, ds.tparams
			if ds.detail != "" && (sy.Kind == "constant" || sy.Kind == "variable") {
				sy.Detail = ds.detail
			}
			if ds.isType && sy.Kind == "function" { // type F func(...): gopls says function
				sy.Kind = "type"
			}
		}
		api.Symbols = append(api.Symbols, sy)
		for _, ch := range d.Children {
			add(ch, d.Name)
		}
	}
	for _, s := range res.Symbols {
		add(s, "")
	}
	return api, nil
}

// packageSymbol is one of gopls.package_symbols' answers: a
// documentSymbol whose File indexes the answer's Files, children included
// (a method may be declared in another file than its type).
type packageSymbol struct {
	Name           string          `json:"name"`
	Detail         string          `json:"detail"`
	Kind           int             `json:"kind"`
	Range          lspRange        `json:"range"`
	SelectionRange lspRange        `json:"selectionRange"`
	Children       []packageSymbol `json:"children"`
	File           int             `json:"file"`
}

// exported: the name (or a method's name after its receiver) starts with
// an upper-case letter.
func exported(name string) bool {
	name = normalizeSymbol(name)
	if i := strings.LastIndex(name, "."); i >= 0 {
		if !exported(name[:i]) {
			return false
		}
		name = name[i+1:]
	}
	for _, r := range name {
		return unicode.IsUpper(r)
	}
	return false
}
