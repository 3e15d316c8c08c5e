package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"trestle/app/watch"
	"trestle/internal/testfix"
)

// goplsHolds reports whether the client's gopls has rel open (a didOpen
// sent and no didClose since).
func goplsHolds(c *Client, rel string) bool {
	c.mu.Lock()
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return false
	}
	s.docMu.Lock()
	defer s.docMu.Unlock()
	_, ok := s.sent[rel]
	return ok
}

// TestRequestsKeepTheirFilesOpen: a file a request is about stays open in
// gopls (so its package stays type-checked), up to keepOpen of them, the
// least recently asked about closed first; a change on disk reaches the
// next request; the editor's documents are never closed by it.
func TestRequestsKeepTheirFilesOpen(t *testing.T) {
	files := map[string]string{"go.mod": "module example.com/many\n\ngo 1.22\n"}
	for i := range keepOpen + 2 {
		files[fmt.Sprintf("f%02d.go", i)] = fmt.Sprintf("package many\n\n// F%d is a function.\nfunc F%d() int { return %d }\n", i, i, i)
	}
	root := testfix.Project(t, files)
	c := newClient(t, root, Config{Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")})
	ctx := ctxFor(t)

	c.OpenDocument("f00.go", files["f00.go"]) // the editor's
	for i := 1; i <= keepOpen+1; i++ {
		rel := fmt.Sprintf("f%02d.go", i)
		if _, err := c.DocumentSymbols(ctx, rel); err != nil {
			t.Fatal(err)
		}
		waitFor(t, rel+" open in gopls", func() bool { return goplsHolds(c, rel) })
	}
	waitFor(t, "f01.go, the least recently used, closed", func() bool { return !goplsHolds(c, "f01.go") })
	for i := 2; i <= keepOpen+1; i++ {
		if rel := fmt.Sprintf("f%02d.go", i); !goplsHolds(c, rel) {
			t.Errorf("%s was closed; only the least recently used should be", rel)
		}
	}
	if !goplsHolds(c, "f00.go") {
		t.Error("the editor's document was closed")
	}

	// Changed on disk behind gopls's back (no watcher here): the next
	// request about the file sees the new text.
	moved := "package many\n\n\n\n// F2 moved down.\nfunc F2() int { return 2 }\n"
	p := filepath.Join(root, "f02.go")
	if err := os.WriteFile(p, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(2 * time.Second)
	os.Chtimes(p, later, later) // a distinct stamp even on a coarse clock
	syms, err := c.DocumentSymbols(ctx, "f02.go")
	if err != nil || len(syms) != 1 || syms[0].Line != 6 {
		t.Fatalf("outline of f02.go after it changed on disk: %+v, %v; want F2 at line 6", syms, err)
	}

	// A change the watcher reports closes the file: gopls reads the disk.
	c.DiskChanged([]watch.Event{{Path: "f03.go", Op: watch.Changed}})
	waitFor(t, "f03.go closed after a change on disk", func() bool { return !goplsHolds(c, "f03.go") })
}
