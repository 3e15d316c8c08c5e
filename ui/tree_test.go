package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/ignore"
	"trestle/app/project"
	"trestle/app/watch"
	"trestle/app/workbench"
	"trestle/internal/testfix"
)

// newProject writes files (slash paths → content) under a temp folder and
// opens it as a project.
func newProject(t *testing.T, files map[string]string) *project.Project {
	t.Helper()
	p, err := project.Open(testfix.Project(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestListDir(t *testing.T) {
	p := newProject(t, map[string]string{
		"main.go":         "package main\n",
		"README.md":       "",
		"b.txt":           "",
		"Zeta/z.go":       "",
		"alpha/a.go":      "",
		"internal/x.go":   "",
		".git/HEAD":       "",
		".github/ci.yml":  "",
		"alpha/deep/d.go": "",
		".gitignore":      "*.txt\nbuild/\n",
		"build/out":       "",
	})
	outside := t.TempDir()
	symlink(t, outside, filepath.Join(p.Root, "out"))
	symlink(t, filepath.Join(p.Root, "alpha"), filepath.Join(p.Root, "in"))
	symlink(t, filepath.Join(p.Root, "main.go"), filepath.Join(p.Root, "link.go"))

	tests := []struct {
		name string
		rel  string
		want []entry
	}{
		{name: "root", rel: "", want: []entry{
			{".github", true, false}, {"alpha", true, false}, {"build", true, true}, {"in", true, false},
			{"internal", true, false}, {"Zeta", true, false},
			{".gitignore", false, false}, {"b.txt", false, true}, {"link.go", false, false},
			{"main.go", false, false}, {"out", false, false}, {"README.md", false, false},
		}},
		{name: "subfolder", rel: "alpha", want: []entry{{"deep", true, false}, {"a.go", false, false}}},
		{name: "through an inside symlink", rel: "in", want: []entry{{"deep", true, false}, {"a.go", false, false}}},
		{name: "inside an ignored folder", rel: "build", want: []entry{{"out", false, true}}},
	}
	ig := ignore.New(p.Root)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := listDir(p, ig, tt.rel)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("listDir(%q) =\n%v\nwant\n%v", tt.rel, got, tt.want)
			}
		})
	}
	if _, err := listDir(p, ig, "out"); err == nil {
		t.Error("listDir of a symlink out of the project succeeded")
	}
}

func TestFileTreeReadsFolderOnce(t *testing.T) {
	p := newProject(t, map[string]string{"a/x.go": "", "b.go": ""})
	ft := newFileTree(p, func(err error) { t.Errorf("failed: %v", err) })
	if got := ft.childUIDs(""); !slices.Equal(got, []string{"a", "b.go"}) {
		t.Fatalf("root = %q", got)
	}
	if !ft.isBranch("a") || ft.isBranch("b.go") {
		t.Error("isBranch wrong for a or b.go")
	}
	if got := ft.childUIDs("a"); !slices.Equal(got, []string{"a/x.go"}) {
		t.Fatalf("a = %q", got)
	}
	if err := os.WriteFile(filepath.Join(p.Root, "c.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := ft.childUIDs(""); len(got) != 2 {
		t.Errorf("root read again: %q", got)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

func TestFileTreeHidesIgnored(t *testing.T) {
	p := newProject(t, map[string]string{".gitignore": "*.log\n", "a.go": "", "x.log": ""})
	ft := newFileTree(p, func(err error) { t.Errorf("failed: %v", err) })
	if got := ft.childUIDs(""); !slices.Equal(got, []string{".gitignore", "a.go", "x.log"}) || !ft.ignored["x.log"] {
		t.Fatalf("dimmed: root = %q, ignored = %v", got, ft.ignored)
	}
	ft = newFileTree(p, func(err error) { t.Errorf("failed: %v", err) })
	ft.hideIgnored = true
	if got := ft.childUIDs(""); !slices.Equal(got, []string{".gitignore", "a.go"}) {
		t.Errorf("hidden: root = %q", got)
	}
}

// TestFileTreeRereadKeepsOpenBranches applies watcher events the way the
// window does: read off the main goroutine, apply on it.
func TestFileTreeRereadKeepsOpenBranches(t *testing.T) {
	test.NewTempApp(t)
	p := newProject(t, map[string]string{"a/x.go": "", "a/sub/y.go": "", "b.go": ""})
	ft := newFileTree(p, func(err error) { t.Errorf("failed: %v", err) })
	tree := ft.widget()
	tree.OpenBranch("a")
	tree.OpenBranch("a/sub")
	ft.childUIDs("a/sub")

	writeFile(t, p.Root, "a/new.go", "")
	writeFile(t, p.Root, "c.go", "")
	if err := os.Remove(filepath.Join(p.Root, "b.go")); err != nil {
		t.Fatal(err)
	}
	ft.apply(ft.reread([]watch.Event{
		{Path: "a/new.go", Op: watch.Created}, {Path: "c.go", Op: watch.Created},
		{Path: "b.go", Op: watch.Removed}, {Path: "unread/z.go", Op: watch.Created},
	}))
	if got := ft.children["a"]; !slices.Equal(got, []string{"a/sub", "a/new.go", "a/x.go"}) {
		t.Errorf("a = %q", got)
	}
	if got := ft.children[""]; !slices.Equal(got, []string{"a", "c.go"}) {
		t.Errorf("root = %q", got)
	}
	if !tree.IsBranchOpen("a") || !tree.IsBranchOpen("a/sub") {
		t.Error("open branches closed by the refresh")
	}

	if err := os.RemoveAll(filepath.Join(p.Root, "a")); err != nil {
		t.Fatal(err)
	}
	ft.apply(ft.reread([]watch.Event{{Path: "a", Op: watch.Removed}}))
	if _, ok := ft.children["a/sub"]; ok || ft.loaded.has("a") {
		t.Error("a removed folder is still cached")
	}
}

func TestFileTreeGitignoreChangeRedims(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "", "b.log": ""})
	ft := newFileTree(p, func(err error) { t.Errorf("failed: %v", err) })
	ft.childUIDs("")
	if ft.ignored["b.log"] {
		t.Fatal("ignored before any .gitignore")
	}
	writeFile(t, p.Root, ".gitignore", "*.log\n")
	ft.apply(ft.reread([]watch.Event{{Path: ".gitignore", Op: watch.Created}}))
	if !ft.ignored["b.log"] {
		t.Error("b.log not dimmed after .gitignore appeared")
	}
}

func TestFileOperations(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "package a\n", "dir/in.go": ""})
	ft := newFileTree(p, func(error) {})
	outside := t.TempDir()
	writeFile(t, outside, "keep.txt", "precious")
	symlink(t, outside, filepath.Join(p.Root, "link"))

	tests := []struct {
		name    string
		op      func() error
		wantErr bool
		exists  []string
		gone    []string
	}{
		{name: "new file", op: func() error { return ft.createFile("new.go") }, exists: []string{"new.go"}},
		{name: "new file in new folders", op: func() error { return ft.createFile("x/y/z.go") }, exists: []string{"x/y/z.go"}},
		{name: "new file refuses to replace", op: func() error { return ft.createFile("a.go") }, wantErr: true},
		{name: "new file outside", op: func() error { return ft.createFile("../evil.go") }, wantErr: true},
		{name: "new file through a symlink out", op: func() error { return ft.createFile("link/evil.go") }, wantErr: true},
		{name: "new folder", op: func() error { return ft.createFolder("pkg/sub") }, exists: []string{"pkg/sub"}},
		{name: "new folder exists", op: func() error { return ft.createFolder("dir") }, wantErr: true},
		{name: "rename", op: func() error { return ft.rename("new.go", "renamed.go") }, exists: []string{"renamed.go"}, gone: []string{"new.go"}},
		{name: "rename refuses to replace", op: func() error { return ft.rename("renamed.go", "a.go") }, wantErr: true},
		{name: "rename a folder", op: func() error { return ft.rename("dir", "moved") }, exists: []string{"moved/in.go"}, gone: []string{"dir"}},
		{name: "delete file", op: func() error { return ft.remove("renamed.go") }, gone: []string{"renamed.go"}},
		{name: "delete folder", op: func() error { return ft.remove("moved") }, gone: []string{"moved"}},
		{name: "delete a symlink, not its target", op: func() error { return ft.remove("link") }, gone: []string{"link"}},
		{name: "delete the root", op: func() error { return ft.remove("") }, wantErr: true},
		{name: "delete outside", op: func() error { return ft.remove("../x") }, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.op()
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			for _, rel := range tt.exists {
				if _, err := os.Lstat(filepath.Join(p.Root, rel)); err != nil {
					t.Errorf("%s missing: %v", rel, err)
				}
			}
			for _, rel := range tt.gone {
				if _, err := os.Lstat(filepath.Join(p.Root, rel)); err == nil {
					t.Errorf("%s still there", rel)
				}
			}
		})
	}
	if data, err := os.ReadFile(filepath.Join(outside, "keep.txt")); err != nil || string(data) != "precious" {
		t.Errorf("the symlink's target was touched: %q, %v", data, err)
	}
}

func TestValidNames(t *testing.T) {
	tests := []struct {
		name, in string
		base, nw bool // valid as a base name, as a new path
	}{
		{name: "plain", in: "main.go", base: true, nw: true},
		{name: "spaces trimmed", in: " a.go ", base: true, nw: true},
		{name: "empty", in: "  "},
		{name: "nested", in: "pkg/a.go", nw: true},
		{name: "dot dot", in: ".."},
		{name: "escape", in: "a/../../b"},
		{name: "absolute", in: "/etc/passwd"},
		{name: "git", in: ".git"},
		{name: "backslash", in: `a\b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := validBaseName(tt.in) == nil; got != tt.base {
				t.Errorf("validBaseName(%q) ok = %v", tt.in, got)
			}
			if got := validNewName(tt.in) == nil; got != tt.nw {
				t.Errorf("validNewName(%q) ok = %v", tt.in, got)
			}
		})
	}
}

func TestTreeEnterSelectsFocused(t *testing.T) {
	test.NewTempApp(t)
	p := newProject(t, map[string]string{"a.go": "", "b.go": ""})
	ft := newFileTree(p, func(err error) { t.Errorf("failed: %v", err) })
	tree := ft.widget()
	var selected []string
	tree.OnSelected = func(uid string) { selected = append(selected, uid) }
	w := test.NewWindow(tree)
	defer w.Close()
	w.Canvas().Focus(tree)
	tree.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	tree.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !slices.Equal(selected, []string{"b.go"}) {
		t.Errorf("selected %q, want b.go", selected)
	}
}

func TestTreeItemTapSelectsAndSecondaryTapShowsMenu(t *testing.T) {
	w := newTestWindow(t)
	item := newTreeItem(w.files)
	w.files.updateNode("lib", true, item)
	item.TappedSecondary(&fyne.PointEvent{})
	var menu *widget.PopUpMenu
	for _, o := range test.LaidOutObjects(w.Window().Canvas().Overlays().Top()) {
		if m, ok := o.(*widget.PopUpMenu); ok {
			menu = m
		}
	}
	if menu == nil {
		t.Fatal("no pop-up menu shown")
	}
	if n := len(menu.Items); n != 5 { // four actions and a separator
		t.Errorf("menu has %d entries, want 5", n)
	}
	menu.Hide()

	w.files.updateNode("main.go", false, item)
	item.Tapped(&fyne.PointEvent{})
	w.loading.Wait() // OpenOnMain reads on a goroutine, then fyne.Do
	if got := tabs(t, w); !slices.Equal(got, []workbench.Tab{{Path: "main.go", Active: true}}) {
		t.Errorf("after a tap, tabs = %v", got)
	}
}

// TestWindowWatchShowsNewFiles runs the real watcher under the test app.
func TestWindowWatchShowsNewFiles(t *testing.T) {
	w := newTestWindow(t)
	changed := make(chan []watch.Event, 16)
	w.onFilesChanged = func(ev []watch.Event) { changed <- ev }
	readFolder(w, "lib") // read first: opening an unread branch reads it on a goroutine
	w.tree.OpenBranch("lib")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := w.Watch(ctx); err != nil {
		t.Fatal(err)
	}
	defer w.stopWatching()
	<-w.watcher.Ready()
	writeFile(t, w.project.Root, "lib/extra.go", "package lib\n")
	deadline := time.After(time.Minute)
	for {
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("lib/extra.go never showed; lib = %q", w.files.children["lib"])
		}
		if slices.Contains(w.files.children["lib"], "lib/extra.go") {
			return
		}
	}
}

func writeFile(t *testing.T, root, name, text string) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNewFileDialogCreatesAndOpens drives the New File… dialog: type a
// name, press Enter; the file exists, shows in the tree and opens.
func TestNewFileDialogCreatesAndOpens(t *testing.T) {
	w := newTestWindow(t)
	readFolder(w, "lib")
	w.files.askNew("New File", "lib", w.files.createFile)
	var entry *escEntry
	for _, o := range test.LaidOutObjects(w.Window().Canvas().Overlays().Top()) {
		if e, ok := o.(*escEntry); ok {
			entry = e
		}
	}
	if entry == nil {
		t.Fatal("no name entry in the dialog")
	}
	test.Type(entry, "sub/new.go")
	// What Enter does, without the entry's own redraw after it, which the
	// test driver would run alongside the goroutine the dialog starts.
	entry.OnSubmitted(entry.Text)
	w.files.io.Wait()
	w.loading.Wait()
	if _, err := os.Stat(filepath.Join(w.project.Root, "lib", "sub", "new.go")); err != nil {
		t.Fatal(err)
	}
	if got := w.files.children["lib"]; !slices.Contains(got, "lib/sub") {
		t.Errorf("lib = %q, want lib/sub shown", got)
	}
	if got := tabs(t, w); !slices.ContainsFunc(got, func(tb workbench.Tab) bool { return tb.Path == "lib/sub/new.go" }) {
		t.Errorf("tabs = %v, want lib/sub/new.go open", got)
	}
}

// readFolder asks the window's tree for folder uid and waits for the read
// that goes on off the main goroutine.
func readFolder(w *Window, uid string) []string {
	w.files.childUIDs(uid)
	w.files.io.Wait()
	return w.files.childUIDs(uid)
}

func TestWindowTreeReadsFoldersOffTheMainGoroutine(t *testing.T) {
	a := test.NewTempApp(t)
	w := newWindow(a, newProject(t, map[string]string{"lib/lib.go": "package lib\n"}))
	defer w.Window().Close()
	var queued []func()
	w.files.async = func(fn func()) { queued = append(queued, fn) } // as New's goroutine, but held
	if got := w.files.childUIDs("lib"); got != nil || len(queued) != 1 {
		t.Fatalf("a folder was read at once on the main goroutine: %q (%d reads queued)", got, len(queued))
	}
	w.files.childUIDs("lib")
	if len(queued) != 1 {
		t.Fatalf("a folder being read was read again: %d reads queued", len(queued))
	}
	queued[0]() // the read, then its fyne.Do
	if got := w.files.childUIDs("lib"); !slices.Equal(got, []string{"lib/lib.go"}) {
		t.Fatalf("lib = %q", got)
	}
}
