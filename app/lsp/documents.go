package lsp

// The documents the editor holds: their unsaved text is what gopls sees
// (didOpen, didChange, didClose are sent by the session's sync loop), and
// the paths gopls reports are mapped back to project-relative ones.

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"trestle/app/watch"
)

// OpenDocument tells gopls that the editor holds rel with text (unsaved
// edits included): a didOpen the first time, a didChange after. It never
// blocks on gopls; the text is sent in the background and before any
// request.
func (c *Client) OpenDocument(rel, text string) {
	c.mu.Lock()
	d := c.docs[rel]
	if d == nil {
		d = &doc{}
		c.docs[rel] = d
	} else if d.auto = false; d.pending == nil && d.text == text { // the editor's from now on
		c.mu.Unlock()
		return
	}
	d.remember()
	d.text, d.pending, d.version, d.lines, d.key = text, nil, d.version+1, nil, 0
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		s.kick()
	}
}

// OpenDocumentVersion is OpenDocument for a text that key names (a
// textbuf.Buffer version: one per text in the process, a later text of
// the same buffer a larger one): text is asked for only when the document
// does not hold that text already, so an editor that did not change since
// the last request costs no copy of its text, and a text older than the
// one held (a slower goroutine's) is dropped. text returns false when
// there is none to send.
func (c *Client) OpenDocumentVersion(rel string, key uint64, text func() (string, bool)) {
	c.mu.Lock()
	skip := c.heldLocked(rel, key)
	c.mu.Unlock()
	if skip {
		return
	}
	t, ok := text()
	if !ok {
		return
	}
	c.setKeyed(rel, key, t, nil)
}

// OpenDocumentLazy is OpenDocumentVersion for a text that is joined only
// when gopls is sent it: text (a textbuf.Snapshot's FileText) is called at
// most once, off the caller's goroutine (by the sync loop, or by the next
// request, before it is sent), and not at all when a newer text replaces
// it first. The editor hands over its text this way, so that a keystroke's
// sync costs the main goroutine no join. It never blocks.
func (c *Client) OpenDocumentLazy(rel string, key uint64, text func() string) {
	c.setKeyed(rel, key, "", &lazyText{join: text})
}

// Holds reports whether gopls is given the text that key names as rel's
// (or a newer one of the same buffer) by the editor: sending it again
// would change nothing. Safe for concurrent use.
func (c *Client) Holds(rel string, key uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.heldLocked(rel, key)
}

// heldLocked reports whether rel's editor document holds key's text or a
// newer one. c.mu is held.
func (c *Client) heldLocked(rel string, key uint64) bool {
	d := c.docs[rel]
	return key != 0 && d != nil && !d.auto && d.key != 0 && key <= d.key
}

// setKeyed makes key's text rel's (text, or lazy when not nil), unless
// the document holds that text or a newer one already.
func (c *Client) setKeyed(rel string, key uint64, text string, lazy *lazyText) {
	c.mu.Lock()
	if c.heldLocked(rel, key) {
		c.mu.Unlock()
		return
	}
	d := c.docs[rel]
	if d == nil {
		d = &doc{}
		c.docs[rel] = d
	}
	if lazy == nil && !d.auto && d.pending == nil && d.text == text {
		d.key = key // the same text, sent before under another name
		c.mu.Unlock()
		return
	}
	d.remember()
	d.auto = false
	d.text, d.pending, d.version, d.lines, d.key = text, lazy, d.version+1, nil, key
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		s.kick()
	}
}

// lazyText is a document's text not joined yet (OpenDocumentLazy).
type lazyText struct {
	once sync.Once
	join func() string
	text string
}

func (l *lazyText) get() string {
	l.once.Do(func() { l.text, l.join = l.join(), nil })
	return l.text
}

// resolved returns a copy of rel's document with its text joined, and
// keeps the joined text. ok is false when rel is not open. Not with c.mu
// held: the join runs without it.
func (c *Client) resolved(rel string) (out doc, ok bool) {
	c.mu.Lock()
	d := c.docs[rel]
	if d == nil {
		c.mu.Unlock()
		return doc{}, false
	}
	out = *d
	c.mu.Unlock()
	if out.pending == nil {
		return out, true
	}
	out.text, out.pending, out.lines = out.pending.get(), nil, nil
	c.mu.Lock()
	if cur := c.docs[rel]; cur == d && d.version == out.version {
		d.text, d.pending, d.lines = out.text, nil, nil
	}
	c.mu.Unlock()
	return out, true
}

// CloseDocument tells gopls that the editor no longer holds rel (gopls
// reads it from disk again).
func (c *Client) CloseDocument(rel string) {
	c.mu.Lock()
	_, ok := c.docs[rel]
	delete(c.docs, rel)
	s := c.sess
	c.mu.Unlock()
	if ok && s != nil {
		s.kick()
	}
}

// Saved tells gopls that rel was written to disk.
func (c *Client) Saved(rel string) {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		go s.notify("textDocument/didSave", didSaveParams{TextDocument: textDocumentID{URI: fileURI(c.abs(rel))}})
	}
}

// docsSnapshot copies the open documents, their texts joined (off the
// editor's goroutine: here, by the sync loop or a request).
func (c *Client) docsSnapshot() map[string]doc {
	c.mu.Lock()
	rels := make([]string, 0, len(c.docs))
	for rel := range c.docs {
		rels = append(rels, rel)
	}
	c.mu.Unlock()
	out := make(map[string]doc, len(rels))
	for _, rel := range rels {
		if d, ok := c.resolved(rel); ok {
			out[rel] = d
		}
	}
	return out
}

// abs is the absolute path of a project-relative (or already absolute) path.
func (c *Client) abs(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.root, filepath.FromSlash(p))
}

// rel is the project-relative path of abs, or abs itself outside the project.
func (c *Client) rel(abs string) string {
	for _, root := range []string{c.root, c.realRoot} {
		if r, err := filepath.Rel(root, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(r)
		}
	}
	return abs
}

// text is what gopls sees as path's content: the editor's text when open,
// else the file on disk.
func (c *Client) text(path string) (string, error) {
	l, err := c.lines(path)
	if err != nil {
		return "", err
	}
	return l.text, nil
}

// lines is text with its lines indexed: an open document's index is
// built once per version, a disk file's once per content.
func (c *Client) lines(path string) (*lines, error) {
	abs := c.abs(path)
	rel := c.rel(abs)
	if d, ok := c.resolved(rel); ok {
		text, l := d.text, d.lines
		if l == nil || l.text != text {
			l = newLines(text)
			c.mu.Lock()
			if cur := c.docs[rel]; cur != nil && cur.pending == nil && cur.text == text {
				cur.lines = l
			}
			c.mu.Unlock()
		}
		return l, nil
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return c.disk.get(abs, b), nil
}

// FilesChanged tells gopls that Trestle wrote the project files rels to
// disk while the editor does not hold them (a rename's files, or their
// restore), so it reads them again at once (its own file watcher, which
// it runs for a client that watches nothing, would tell it later). It
// never blocks on gopls.
func (c *Client) FilesChanged(rels ...string) {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if len(rels) == 0 {
		return
	}
	c.forgetOpened(rels)
	if s == nil {
		return
	}
	changes := make([]fileEvent, 0, len(rels))
	for _, rel := range rels {
		changes = append(changes, fileEvent{URI: fileURI(c.abs(rel)), Type: fileChanged})
	}
	go s.notify("workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: changes})
}

// DiskChanged tells gopls of the changes the project's watcher saw on
// disk (a file an editor outside Trestle wrote, a git checkout, a file
// created by a tool), so its diagnostics and answers follow the disk as
// they follow the editor. Only what gopls reads is sent: Go files and
// go.mod, go.sum and go.work; a lost-events batch (watch.All) reports
// every file under the root as changed, which makes gopls reload. It never
// blocks and may be called from any goroutine.
func (c *Client) DiskChanged(events []watch.Event) {
	rels := make([]string, 0, len(events))
	for _, e := range events {
		rels = append(rels, e.Path)
	}
	c.forgetOpened(rels)
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return
	}
	var changes []fileEvent
	for _, e := range events {
		if e.Path == watch.All {
			changes = append(changes, fileEvent{URI: fileURI(c.abs("go.mod")), Type: fileChanged})
			continue
		}
		if !goplsReads(e.Path) {
			continue
		}
		typ := fileChanged
		switch e.Op {
		case watch.Created:
			typ = fileCreated
		case watch.Removed:
			typ = fileDeleted
		}
		changes = append(changes, fileEvent{URI: fileURI(c.abs(e.Path)), Type: typ})
	}
	if len(changes) > 0 {
		go s.notify("workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: changes})
	}
}

// goplsReads reports whether gopls reads the project file rel: Go source
// and the module files.
func goplsReads(rel string) bool {
	switch path.Base(rel) {
	case "go.mod", "go.sum", "go.work", "go.work.sum":
		return true
	}
	return strings.HasSuffix(rel, ".go")
}
