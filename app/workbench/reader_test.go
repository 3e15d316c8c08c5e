package workbench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/errdefs"
	"trestle/app/project"
)

// tabs is the editors of a window for these tests: rel -> unsaved text.
// The real window's Buffer is tested in package ui.
type tabs map[string]string

func (b tabs) Buffer(_ context.Context, cp project.Path) (string, bool, bool, error) {
	if cp.Rel() == "busy.go" {
		return "", false, false, errdefs.ErrBusy
	}
	text, open := b[cp.Rel()]
	return text, open, open, nil
}

func TestReaderPrefersTheEditorThenDisk(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{"a.go": "package a\n", "b.go": "package b\n", ".git/config": "[core]\n", "busy.go": "x\n"} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := project.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	window := Reader{Project: p, Buffers: tabs{"a.go": "package a // typing\n", ".git/config": "[core]\n"}}
	disk := Reader{Project: p}
	tests := []struct {
		name, path string
		r          Reader
		text       string
		exists     bool
		unsaved    bool
		err        error
	}{
		{"editor", "a.go", window, "package a // typing\n", true, true, nil},
		{"disk under a window", "b.go", window, "package b\n", true, false, nil},
		{"disk alone", "a.go", disk, "package a\n", true, false, nil},
		{"missing", "new.go", window, "", false, false, nil},
		{"git metadata, even open", ".git/config", window, "", false, false, errdefs.ErrRefused},
		{"editor busy", "busy.go", window, "", false, false, errdefs.ErrBusy},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp, err := p.Resolve(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			before := p.Resolutions()
			text, exists, err := tt.r.Current(ctx, cp)
			if text != tt.text || exists != tt.exists || !errors.Is(err, tt.err) {
				t.Fatalf("Current = %q %v %v; want %q %v %v", text, exists, err, tt.text, tt.exists, tt.err)
			}
			if err != nil && !strings.Contains(err.Error(), tt.path) {
				t.Errorf("the error does not name %s: %v", tt.path, err)
			}
			if tt.exists {
				ft, unsaved, err := tt.r.Read(ctx, cp)
				if err != nil || ft.Text != tt.text || ft.Path != tt.path || unsaved != tt.unsaved {
					t.Fatalf("Read = %+v unsaved %v %v", ft, unsaved, err)
				}
			}
			if p.Resolutions() != before {
				t.Errorf("the reader resolved the path again (%d times)", p.Resolutions()-before)
			}
		})
	}
}
