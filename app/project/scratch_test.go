package project

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteScratchKeepsEditsAndDropsTmpl(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(t.TempDir(), "src")
	writeFiles(t, src, map[string]string{"go.mod.tmpl": "module scratch\n", "main.go.tmpl": "package main\n"})
	fsys := os.DirFS(src)
	if err := WriteScratch(fsys, dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteScratch(fsys, dir); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "main.go"))
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if string(got) != "edited" || string(mod) != "module scratch\n" || err != nil {
		t.Fatalf("main.go %q, go.mod %q %v", got, mod, err)
	}
}
