package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// request sends method to gopls (starting it if needed) after the open
// documents, and decodes the answer into result. A gopls that dies during
// the request is restarted and asked once more.
func (c *Client) request(ctx context.Context, method string, params, result any) error {
	for attempt := 0; ; attempt++ {
		raw, err := c.requestOnce(ctx, method, params)
		if connGone(err) && attempt < 2 && ctx.Err() == nil {
			continue
		}
		if err != nil {
			return describe(method, err)
		}
		if result == nil || len(raw) == 0 {
			return nil
		}
		if err := json.Unmarshal(raw, result); err != nil {
			return fmt.Errorf("gopls's answer to %s: %w", method, err)
		}
		return nil
	}
}

func (c *Client) requestOnce(ctx context.Context, method string, params any) (json.RawMessage, error) {
	s, err := c.session(ctx)
	if err != nil {
		return nil, err
	}
	type answer struct {
		raw json.RawMessage
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		tok := s.nextID.Add(1) // the document sync counts as pending for the hang watch
		s.pmu.Lock()
		s.pending[tok] = timeNow()
		s.pmu.Unlock()
		s.syncDocs(ctx)
		s.pmu.Lock()
		delete(s.pending, tok)
		s.pmu.Unlock()
		var raw json.RawMessage
		err := s.call(ctx, method, params, &raw)
		ch <- answer{raw, err}
	}()
	select {
	case a := <-ch:
		return a.raw, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.exited:
		return nil, jsonrpc2.ErrClosed
	}
}

// connGone reports whether err says the connection to gopls is gone.
// jsonrpc2 says ErrClosed once it knows; a write that races the process's
// death fails first with the pipe's own error ("write |1: broken pipe").
func connGone(err error) bool {
	return errors.Is(err, jsonrpc2.ErrClosed) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, io.ErrClosedPipe) || errors.Is(err, os.ErrClosed)
}

func describe(method string, err error) error {
	var rpcErr *jsonrpc2.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the Go language server did not answer %s in time (it may still be loading the module; try again): %w", method, err)
	case connGone(err):
		return fmt.Errorf("the Go language server stopped during %s; it is being restarted, try again", method)
	case errors.As(err, &rpcErr):
		return fmt.Errorf("gopls (%s): %s", method, rpcErr.Message)
	}
	return err
}

// Diagnostic is one problem gopls reports for a file.
type Diagnostic struct {
	Path     string `json:"path"`
	Range    Range  `json:"range"`
	Severity string `json:"severity"` // error, warning, information, hint
	Source   string `json:"source"`   // gopls's label: compiler, a vet analyzer, ...
	Code     string `json:"code,omitempty"`
	Message  string `json:"message"`
	// Version is the document version the diagnostics were computed for
	// (0 for a file the editor does not hold).
	Version int `json:"-"`
	// Key names the text Range refers to, as OpenDocumentVersion's key
	// (a textbuf.Buffer version), when the editor sent it keyed; else 0.
	// An editor whose text moved on since maps Range through its edits.
	Key uint64 `json:"-"`
}

// linesOf is the text of version of rel as gopls was sent it, for the
// positions of diagnostics computed on it, and the key that names it: the
// document's text, or one of the few before it when gopls answers for a
// text the editor has typed past (its columns count in that text). A
// version the client no longer has, or 0 (the disk's), gets what gopls
// sees now and key 0.
func (c *Client) linesOf(rel string, version int) (*lines, uint64) {
	c.mu.Lock()
	d := c.docs[rel]
	var old *pastText
	if d != nil && version != 0 && version != d.version {
		for i := range d.past {
			if d.past[i].version == version {
				old = &d.past[i]
			}
		}
	}
	c.mu.Unlock()
	if old != nil {
		return newLines(old.text()), old.key
	}
	cur, ok := c.resolved(rel)
	text, err := c.lines(rel)
	if err != nil {
		text = newLines("")
	}
	if !ok || cur.version != version || cur.text != text.text {
		return text, 0
	}
	return text, cur.key
}

func (c *Client) publish(p publishDiagnosticsParams) {
	abs := uriPath(p.URI)
	if abs == "" {
		return
	}
	rel := c.rel(abs)
	text, key := c.linesOf(rel, p.Version)
	out := make([]Diagnostic, 0, len(p.Diagnostics))
	for _, d := range p.Diagnostics {
		sev := severities[d.Severity]
		if sev == "" {
			sev = "error"
		}
		code := ""
		if d.Code != nil {
			code = fmt.Sprint(d.Code)
		}
		out = append(out, Diagnostic{Path: rel, Range: c.fromRange(text, d.Range), Severity: sev,
			Source: d.Source, Code: code, Message: d.Message, Version: p.Version, Key: key})
	}
	c.mu.Lock()
	c.lastEvent = time.Now()
	if len(out) == 0 {
		delete(c.diags, rel)
	} else {
		c.diags[rel] = out
	}
	listeners := c.onDiags
	c.mu.Unlock()
	if f := c.cfg.OnDiagnostics; f != nil {
		f(rel)
	}
	for _, f := range listeners {
		f(rel)
	}
}

// Diagnostics are gopls's latest problems for the files under prefix (a
// file or folder, project-relative; "" for all), sorted by place.
func (c *Client) Diagnostics(prefix string) []Diagnostic {
	prefix = strings.TrimSuffix(prefix, "/")
	c.mu.Lock()
	var out []Diagnostic
	for rel, ds := range c.diags {
		if prefix == "" || rel == prefix || strings.HasPrefix(rel, prefix+"/") {
			out = append(out, ds...)
		}
	}
	c.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Range.Start.Line != b.Range.Start.Line {
			return a.Range.Start.Line < b.Range.Start.Line
		}
		return a.Range.Start.Col < b.Range.Start.Col
	})
	return out
}

func (c *Client) fromRange(text *lines, r lspRange) Range {
	return Range{Start: fromProtocol(text, r.Start), End: fromProtocol(text, r.End)}
}

// texts holds the files one answer's locations are in, each read once
// (a references or symbols answer names the same files many times).
type texts struct {
	c     *Client
	byAbs map[string]*lines
}

func (c *Client) texts() *texts { return &texts{c: c, byAbs: map[string]*lines{}} }

// location converts a protocol location, reading its file for the columns.
func (t *texts) location(l location) Location {
	abs := uriPath(l.URI)
	text, ok := t.byAbs[abs]
	if !ok {
		var err error
		if text, err = t.c.lines(abs); err != nil {
			text = newLines("")
		}
		t.byAbs[abs] = text
	}
	return Location{Path: t.c.rel(abs), Range: t.c.fromRange(text, l.Range)}
}

// at is the protocol position of pos in path's current text.
func (c *Client) at(path string, pos Position) (textDocumentPosition, error) {
	p, _, err := c.atText(path, pos)
	return p, err
}

// atText is at with the text it was computed in, which the answer's
// ranges refer to (gopls gets that text before the request).
func (c *Client) atText(path string, pos Position) (textDocumentPosition, *lines, error) {
	c.keepOpenFor(path)
	text, err := c.lines(path)
	if err != nil {
		return textDocumentPosition{}, nil, err
	}
	return textDocumentPosition{TextDocument: textDocumentID{URI: fileURI(c.abs(path))}, Position: toProtocol(text, pos)}, text, nil
}
