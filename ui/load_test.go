package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
	"trestle/app/project"
)

func TestLoadFile(t *testing.T) {
	p := newProject(t, map[string]string{
		"main.go":     "package main\n",
		"sub/x.go":    "package sub\n",
		"image.png":   "\x89PNG\x00\x00",
		"secret.txt":  "hidden",
		"big/big.txt": "",
	})
	if err := os.Chmod(filepath.Join(p.Root, "secret.txt"), 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(p.Root, "big/big.txt"), project.MaxReadBytes+1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		rel     string
		path    string
		text    string
		notice  string // a substring of the notice
		wantErr error
		notRoot bool // root reads anything, so the case needs another user
	}{
		{name: "text", rel: "main.go", path: "main.go", text: "package main\n"},
		{name: "unclean path", rel: "./sub//x.go", path: "sub/x.go", text: "package sub\n"},
		{name: "binary", rel: "image.png", path: "image.png", notice: "binary"},
		{name: "too large", rel: "big/big.txt", path: "big/big.txt", notice: "over the"},
		{name: "missing", rel: "missing.go", wantErr: errdefs.ErrNotFound},
		{name: "folder", rel: "sub", wantErr: errdefs.ErrInvalid},
		{name: "outside", rel: "../x", wantErr: errdefs.ErrOutside},
		{name: "unreadable", rel: "secret.txt", path: "secret.txt", notice: "cannot be read", notRoot: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.notRoot && os.Geteuid() == 0 {
				t.Skip("root can read an unreadable file")
			}
			f, err := loadFile(p, tt.rel)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			text := ""
			if f.buf != nil {
				text = f.buf.FileText()
			}
			if f.path != tt.path || text != tt.text {
				t.Errorf("got path %q text %q, want %q %q", f.path, text, tt.path, tt.text)
			}
			if (f.hl != nil) != (f.buf != nil && strings.HasSuffix(f.path, ".go")) {
				t.Errorf("highlighter %v for %s", f.hl != nil, f.path)
			}
			if (tt.notice == "") != (f.notice == "") || !strings.Contains(f.notice, tt.notice) {
				t.Errorf("notice = %q, want one containing %q", f.notice, tt.notice)
			}
		})
	}
}
