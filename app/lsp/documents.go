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
	} else if d.auto = false; d.text == text { // the editor's from now on
		c.mu.Unlock()
		return
	}
	d.text, d.version, d.lines, d.key = text, d.version+1, nil, 0
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		s.kick()
	}
}

// OpenDocumentVersion is OpenDocument for a text that key names (a
// textbuf.Buffer version: one per text in the process): text is asked for
// only when the document does not hold that text already, so an editor
// that did not change since the last request costs no copy of its text.
// text returns false when there is none to send.
func (c *Client) OpenDocumentVersion(rel string, key uint64, text func() (string, bool)) {
	c.mu.Lock()
	d := c.docs[rel]
	held := key != 0 && d != nil && !d.auto && d.key == key
	c.mu.Unlock()
	if held {
		return
	}
	t, ok := text()
	if !ok {
		return
	}
	c.OpenDocument(rel, t)
	c.mu.Lock()
	if d := c.docs[rel]; d != nil && d.text == t {
		d.key = key
	}
	c.mu.Unlock()
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

// docsSnapshot copies the open documents.
func (c *Client) docsSnapshot() map[string]doc {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]doc, len(c.docs))
	for rel, d := range c.docs {
		out[rel] = *d
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
	c.mu.Lock()
	d := c.docs[rel]
	var text string
	var l *lines
	if d != nil {
		text, l = d.text, d.lines
	}
	c.mu.Unlock()
	if d != nil {
		if l == nil || l.text != text {
			l = newLines(text)
			c.mu.Lock()
			if cur := c.docs[rel]; cur != nil && cur.text == text {
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
