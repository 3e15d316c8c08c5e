package ui

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// TestSaveFaultKeepsWork makes the save's write fail as a full disk (after
// half the text reached the temporary file) and as a read-only file system
// would. Root ignores permission bits, so the failure is injected through
// writeTemp. The person's text must stay in the buffer, the tab dirty, the
// file byte for byte as it was, no temporary file left, and the error
// shown must name the file.
func TestSaveFaultKeepsWork(t *testing.T) {
	tests := []struct {
		name  string
		errno syscall.Errno
		half  bool // write half the text before failing
	}{
		{"disk full mid-write", syscall.ENOSPC, true},
		{"read-only file system", syscall.EROFS, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failWrites(t, tt.errno, tt.half)
			w := newTestWindow(t)
			e := openEditor(t, w, "main.go")
			test.Type(e.Page(), "// unsaved work\n")
			e.Page().TypedShortcut(&desktopCtrlS)
			w.tabs.saving.Wait()

			text, open, dirty, err := w.Buffer(context.Background(), resolved(t, w, "main.go"))
			if err != nil || !open || !dirty || text != "// unsaved work\n"+mainGo {
				t.Errorf("after the failed save: Buffer = %q open %v dirty %v err %v", text, open, dirty, err)
			}
			if title := w.tabs.find("main.go").item.Text; title != dirtyMark+"main.go" {
				t.Errorf("title = %q, want it marked unsaved", title)
			}
			if data, err := os.ReadFile(filepath.Join(w.project.Root, "main.go")); err != nil || string(data) != mainGo {
				t.Errorf("main.go on disk = %q, %v; want it unchanged", data, err)
			}
			if left, _ := filepath.Glob(filepath.Join(w.project.Root, ".main.go.trestle-*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
			msg := w.status.message.Text
			if !strings.Contains(msg, "save main.go") || !strings.Contains(msg, tt.errno.Error()) {
				t.Errorf("status bar = %q, want the file and %q", msg, tt.errno.Error())
			}
			if !dialogShows(w, "Save main.go") { // the dialog capitalizes the message
				t.Error("no error dialog naming main.go")
			}
		})
	}
}

// failWrites makes writeTemp fail with errno until the test ends, after
// writing half the text when half is set (a disk that fills mid-write).
func failWrites(t *testing.T, errno syscall.Errno, half bool) {
	t.Helper()
	real := writeTemp
	t.Cleanup(func() { writeTemp = real })
	writeTemp = func(f *os.File, text string, _ fs.FileMode) error {
		if half {
			f.WriteString(text[:len(text)/2])
		}
		f.Close()
		return &fs.PathError{Op: "write", Path: f.Name(), Err: errno}
	}
}

// dialogShows reports whether the top overlay (a dialog) shows text
// containing want.
func dialogShows(w *Window, want string) bool {
	top := w.Window().Canvas().Overlays().Top()
	if top == nil {
		return false
	}
	for _, o := range test.LaidOutObjects(top) {
		switch o := o.(type) {
		case *widget.Label:
			if strings.Contains(o.Text, want) {
				return true
			}
		case *canvas.Text:
			if strings.Contains(o.Text, want) {
				return true
			}
		case *widget.RichText:
			if strings.Contains(o.String(), want) {
				return true
			}
		}
	}
	return false
}
