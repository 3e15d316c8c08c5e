package ui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func mkdirs(t *testing.T, root string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFolderCompletions(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "projects/bbolt", "projects/bench", "projects/fsnotify", "projects/.hidden", "other")
	if err := os.WriteFile(filepath.Join(root, "projects", "bfile"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "projects")
	sep := string(filepath.Separator)
	tests := []struct {
		input string
		want  []string
	}{
		{p + sep + "b", []string{p + sep + "bbolt", p + sep + "bench"}},
		{p + sep, []string{p + sep + "bbolt", p + sep + "bench", p + sep + "fsnotify"}},
		{p + sep + ".", []string{p + sep + ".hidden"}},
		{p + sep + "zzz", nil},
		{filepath.Join(root, "nowhere", "x"), nil},
	}
	for _, tt := range tests {
		if got := folderCompletions(tt.input); !slices.Equal(got, tt.want) {
			t.Errorf("folderCompletions(%q) = %q, want %q", tt.input, got, tt.want)
		}
	}
	if got := commonPrefix([]string{p + sep + "bbolt", p + sep + "bench"}); got != p+sep+"b" {
		t.Errorf("commonPrefix = %q", got)
	}
}

// TestOpenFolderByTyping: Open Folder starts at the project's parent,
// Tab completes a unique folder, Enter opens it, in two key presses and
// a few letters instead of the stock dialog's eight clicks.
func TestOpenFolderByTyping(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(900, 600))
	parent := filepath.Dir(w.project.Root)
	mkdirs(t, parent, "sibling-project/sub")
	var opened []string
	w.installActions(Actions{OpenWindow: func(dir string) error { opened = append(opened, dir); return nil }})
	w.menu.openFolder()
	d := w.menu.openFolderShown
	if d.path.Text != parent+string(filepath.Separator) || w.win.Canvas().Focused() != d.path {
		t.Fatalf("Open Folder starts at %q (focus %T), want the project's parent with the keyboard", d.path.Text, w.win.Canvas().Focused())
	}
	test.Type(d.path, "sib")
	d.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
	want := filepath.Join(parent, "sibling-project")
	if d.path.Text != want+string(filepath.Separator) {
		t.Fatalf("Tab completed to %q, want %q", d.path.Text, want+string(filepath.Separator))
	}
	if len(d.matches) != 1 || d.matches[0] != filepath.Join(want, "sub") {
		t.Errorf("under the completed folder the list shows %q, want its sub", d.matches)
	}
	d.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(opened) != 1 || opened[0] != want {
		t.Fatalf("Enter opened %q, want %q", opened, want)
	}

	w.menu.openFolder()
	d = w.menu.openFolderShown
	d.path.SetText(filepath.Join(parent, "no-such-folder"))
	d.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(opened) != 1 {
		t.Errorf("Enter on a path that is no folder opened %q", opened[1:])
	}
	d.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
}

// TestFirstRunWelcome: the first run shows the welcome where the editor's
// hint is, with the attach command and a Copy button that copies it.
func TestFirstRunWelcome(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(900, 600))
	cmd := `claude mcp add trestle -- "/opt/trestle" --mcp-attach`
	w.installActions(Actions{Welcome: cmd})
	texts := labelTexts(w.tabs.hint)
	found := false
	for _, s := range texts {
		found = found || s == cmd
	}
	if !found || !w.tabs.hint.Visible() {
		t.Fatalf("the welcome (visible %v) shows %q, want the attach command", w.tabs.hint.Visible(), texts)
	}
	b := buttonIn(w.tabs.hint, "Copy")
	if b == nil {
		t.Fatal("no Copy button")
	}
	test.Tap(b)
	if got := fyne.CurrentApp().Clipboard().Content(); got != cmd {
		t.Errorf("Copy put %q on the clipboard, want %q", got, cmd)
	}
	openEditor(t, w, "main.go")
	if w.tabs.hint.Visible() {
		t.Error("the welcome still shows over an open tab")
	}
}

// buttonIn finds the button labelled text in o.
func buttonIn(o fyne.CanvasObject, text string) *widget.Button {
	if b, ok := buttonOf(o); ok && b.Text == text {
		return b
	}
	var children []fyne.CanvasObject
	switch v := o.(type) {
	case *fyne.Container:
		children = v.Objects
	case fyne.Widget:
		children = test.WidgetRenderer(v).Objects()
	}
	for _, c := range children {
		if b := buttonIn(c, text); b != nil {
			return b
		}
	}
	return nil
}
