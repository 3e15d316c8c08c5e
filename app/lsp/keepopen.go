package lsp

// Files a request is about are kept open in gopls, as an editor keeps
// them: gopls keeps an open file's package type-checked between requests,
// while a file it only reads from disk may be type-checked again for each
// one (headless, trestle_definition took 80 ms where a client with the
// file open got its answer in 1 ms). The text sent is the disk's; the
// editor's own documents (OpenDocument) always win over it.

import (
	"os"
	"path/filepath"
	"time"

	"trestle/app/watch"
)

// keepOpen is how many files requests opened stay open in gopls, the least
// recently asked about closed first: enough for the files an agent works
// on, few enough that gopls does not keep half a large module in memory.
const keepOpen = 24

// fileStamp tells whether a file changed since it was read.
type fileStamp struct {
	size int64
	mod  time.Time
}

func stampOf(fi os.FileInfo) fileStamp { return fileStamp{fi.Size(), fi.ModTime()} }

// keepOpenFor opens path in gopls with its disk text if the editor does not
// hold it, or refreshes it if it changed on disk since, and marks it as the
// most recently used; the least recently used beyond keepOpen is closed.
// Files outside the project and files gopls does not read are left alone.
func (c *Client) keepOpenFor(path string) {
	abs := c.abs(path)
	rel := c.rel(abs)
	if filepath.IsAbs(rel) || !goplsReads(rel) {
		return
	}
	c.mu.Lock()
	d := c.docs[rel]
	editor := d != nil && !d.auto
	c.mu.Unlock()
	if editor {
		return
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	st := stampOf(fi)
	c.mu.Lock()
	if d := c.docs[rel]; d != nil && d.auto && d.stamp == st {
		c.tick++
		d.used = c.tick
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
	data, err := os.ReadFile(abs)
	if err != nil {
		return
	}
	l := c.disk.get(abs, data)
	c.mu.Lock()
	d = c.docs[rel]
	switch {
	case d != nil && !d.auto: // the editor opened it meanwhile
		c.mu.Unlock()
		return
	case d == nil:
		d = &doc{auto: true}
		c.docs[rel] = d
	}
	c.tick++
	d.used, d.stamp = c.tick, st
	if d.text != l.text || d.version == 0 {
		d.text, d.lines, d.version = l.text, l, d.version+1
	}
	c.evictLocked()
	s := c.sess
	c.mu.Unlock()
	if s != nil {
		s.kick()
	}
}

// evictLocked closes the least recently used files requests opened, past
// keepOpen. c.mu is held.
func (c *Client) evictLocked() {
	for {
		n, oldest := 0, ""
		for rel, d := range c.docs {
			if !d.auto {
				continue
			}
			n++
			if oldest == "" || d.used < c.docs[oldest].used {
				oldest = rel
			}
		}
		if n <= keepOpen {
			return
		}
		delete(c.docs, oldest)
	}
}

// forgetOpened closes the files requests opened among rels (all of them
// for watch.All): they changed on disk, and gopls reads them from disk
// until a request opens them again.
func (c *Client) forgetOpened(rels []string) {
	c.mu.Lock()
	n := 0
	for _, rel := range rels {
		for r, d := range c.docs {
			if d.auto && (rel == watch.All || r == rel) {
				delete(c.docs, r)
				n++
			}
		}
	}
	s := c.sess
	c.mu.Unlock()
	if n > 0 && s != nil {
		s.kick()
	}
}
