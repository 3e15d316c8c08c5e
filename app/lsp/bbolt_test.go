package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"trestle/internal/testfix"
)

// TestBbolt drives gopls on a real module: an unsaved type error, a
// definition, references, hover, a method completion and a rename that
// leaves the module building.
func TestBbolt(t *testing.T) {
	needGopls(t)
	root := testfix.CopyBbolt(t)
	c := newClient(t, root, Config{Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")})
	ctx := ctxFor(t)

	t.Run("definition", func(t *testing.T) {
		locs, err := c.Definition(ctx, "db.go", posOf(t, root, "db.go", "db.Begin(true)", 0, 3))
		want := posOf(t, root, "db.go", "Begin(writable bool)", 0, 0)
		if err != nil || len(locs) != 1 || locs[0].Path != "db.go" || locs[0].Range.Start != want {
			t.Fatalf("definition of db.Begin = %+v, %v; want db.go %+v", locs, err, want)
		}
	})
	t.Run("references", func(t *testing.T) {
		locs, err := c.References(ctx, "tx.go", posOf(t, root, "tx.go", "Commit() (err error)", 0, 0), false)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]int{}
		for _, l := range locs {
			files[l.Path]++
		}
		if files["db.go"] < 2 || files["compact.go"] < 2 {
			t.Fatalf("references of (*Tx).Commit by file: %v, want db.go and compact.go twice each", files)
		}
	})
	t.Run("hover", func(t *testing.T) {
		h, err := c.Hover(ctx, "db.go", posOf(t, root, "db.go", "db.Begin(true)", 0, 3))
		if err != nil || !strings.Contains(h.Text, "func (db *DB) Begin(writable bool) (t *Tx, err error)") {
			t.Fatalf("hover of db.Begin = %q, %v", h.Text, err)
		}
	})
	t.Run("unsaved type error and completion", func(t *testing.T) {
		disk, _ := os.ReadFile(filepath.Join(root, "db.go"))
		anchor := "t, err := db.Begin(true)"
		edited := strings.Replace(string(disk), anchor, anchor+"\n\tvar _ int = \"not an int\"\n\tt.Comm", 1)
		c.OpenDocument("db.go", edited)
		defer c.OpenDocument("db.go", string(disk))
		at := posIn(t, edited, "t.Comm", 0, len("t.Comm"))
		items, err := c.Completions(ctx, "db.go", at)
		found := false
		for _, it := range items[:min(len(items), 5)] {
			found = found || (it.Label == "Commit" && it.Kind == "method" && it.Replace.Start.Col == at.Col-4)
		}
		if err != nil || !found {
			t.Fatalf("completions at t.Comm| = %+v, %v; want the method Commit among the first five", items, err)
		}
		want := posIn(t, edited, `"not an int"`, 0, 0)
		waitFor(t, "the type error", func() bool {
			for _, d := range c.Diagnostics("db.go") {
				if d.Range.Start == want && strings.Contains(d.Message, "cannot use") {
					return true
				}
			}
			return false
		})
	})
	t.Run("rename builds", func(t *testing.T) {
		edits, err := c.Rename(ctx, "tx.go", posOf(t, root, "tx.go", "Commit() (err error)", 0, 0), "CommitTx")
		if err != nil {
			t.Fatal(err)
		}
		touched := map[string]bool{}
		out := t.TempDir()
		os.CopyFS(out, os.DirFS(root))
		for _, e := range edits {
			touched[e.Path] = true
			os.WriteFile(filepath.Join(out, e.Path), []byte(e.New), 0o644)
		}
		for _, f := range []string{"tx.go", "db.go", "compact.go"} {
			if !touched[f] {
				t.Errorf("the rename does not touch %s: %v", f, touched)
			}
		}
		if b, err := goCmd(out, "build", "./...").CombinedOutput(); err != nil {
			t.Fatalf("bbolt after the rename does not build: %v\n%s", err, b)
		}
	})
}
