package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// showMenu shows the context menu of the tree item uid ("" the project
// root) at pos: new file and folder in it (or beside it, for a file),
// rename and delete. Must be called on the main goroutine.
func (t *fileTree) showMenu(uid string, pos fyne.Position) {
	if t.win == nil {
		return
	}
	dir := uid
	if !t.isBranch(uid) {
		dir = parentDir(uid)
	}
	items := []*fyne.MenuItem{
		fyne.NewMenuItem("New File…", func() { t.askNew("New File", dir, t.createFile) }),
		fyne.NewMenuItem("New Folder…", func() { t.askNew("New Folder", dir, t.createFolder) }),
	}
	if uid != "" {
		items = append(items, fyne.NewMenuItemSeparator(),
			fyne.NewMenuItem("Rename…", func() { t.askRename(uid) }),
			fyne.NewMenuItem("Delete…", func() { t.confirmDelete(uid) }))
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), t.win.Canvas(), pos)
}

// askNew asks for the name of a file or folder to create in dir and
// creates it with create (off the main goroutine).
func (t *fileTree) askNew(title, dir string, create func(rel string) error) {
	name := newEscEntry(t.dialogs)
	name.Validator = validNewName
	name.SetPlaceHolder("name, or sub/folder/name")
	item := widget.NewFormItem("Name", name)
	item.HintText = "in " + displayDir(dir)
	t.showForm(title, "Create", name, item, func() {
		rel := path.Join(dir, strings.TrimSpace(name.Text))
		t.runIO([]string{dir}, func() error { return create(rel) }, func() {
			t.reveal(rel)
			if title == "New File" && t.open != nil {
				t.open(rel)
			}
		})
	})
}

// askRename asks for a new name for uid, in the same folder.
func (t *fileTree) askRename(uid string) {
	name := newEscEntry(t.dialogs)
	name.SetText(path.Base(uid))
	name.Validator = validBaseName
	item := widget.NewFormItem("New name", name)
	item.HintText = "in " + displayDir(parentDir(uid))
	t.showForm("Rename "+path.Base(uid), "Rename", name, item, func() {
		to := path.Join(parentDir(uid), strings.TrimSpace(name.Text))
		if to == uid {
			return
		}
		t.runIO([]string{parentDir(uid)}, func() error { return t.rename(uid, to) }, func() { t.reveal(to) })
	})
}

// showForm shows a one-entry form dialog that calls ok when confirmed.
func (t *fileTree) showForm(title, confirm string, entry *escEntry, item *widget.FormItem, ok func()) {
	d := dialog.NewForm(title, confirm, "Cancel", []*widget.FormItem{item}, func(confirmed bool) {
		if confirmed {
			ok()
		}
	}, t.win)
	entry.OnSubmitted = func(string) { d.Submit() } // Enter confirms; Submit checks the validator
	d.Resize(fyne.NewSize(420, d.MinSize().Height))
	t.dialogs.show(d)
	t.win.Canvas().Focus(entry)
}

// confirmDelete asks before deleting uid, naming what goes with a folder.
func (t *fileTree) confirmDelete(uid string) {
	msg := fmt.Sprintf("Delete the file %s?\nThis cannot be undone.", uid)
	if t.isBranch(uid) {
		msg = fmt.Sprintf("Delete the folder %s and everything in it?\nThis cannot be undone.", uid)
	}
	d := dialog.NewConfirm("Delete "+path.Base(uid), msg, func(ok bool) {
		if ok {
			t.runIO([]string{parentDir(uid)}, func() error { return t.remove(uid) }, nil)
		}
	}, t.win)
	d.SetConfirmText("Delete")
	d.SetDismissText("Cancel")
	d.SetConfirmImportance(widget.DangerImportance)
	t.dialogs.show(d)
}

// runIO runs op on a goroutine the tree owns, reads dirs again there, and
// then on the main goroutine shows the folders, and op's error in a dialog
// or calls done. Must be called on the main goroutine.
func (t *fileTree) runIO(dirs []string, op func() error, done func()) {
	t.io.Go(func() {
		err := op()
		reads := t.readDirs(dirs)
		t.do(func() {
			t.apply(reads)
			switch {
			case err != nil:
				t.dialogs.showError(err)
			case done != nil:
				done()
			}
		})
	})
}

// reveal opens the branches down to rel and scrolls to it.
func (t *fileTree) reveal(rel string) {
	if t.tree == nil {
		return
	}
	for dir := parentDir(rel); dir != ""; dir = parentDir(dir) {
		t.tree.OpenBranch(dir)
	}
	t.tree.ScrollTo(rel)
}

// createFile creates the empty file rel and the folders it needs; it
// refuses to replace anything. Safe for concurrent use.
func (t *fileTree) createFile(rel string) error {
	cp, err := t.project.Resolve(rel)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	abs := cp.Abs()
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	return nil
}

// createFolder creates the folder rel and its parents; it refuses one that
// exists. Safe for concurrent use.
func (t *fileTree) createFolder(rel string) error {
	cp, err := t.project.Resolve(rel)
	if err != nil {
		return fmt.Errorf("create folder %s: %w", rel, err)
	}
	abs := cp.Abs()
	if _, err := os.Lstat(abs); err == nil {
		return fmt.Errorf("create folder %s: %w", rel, fs.ErrExist)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return fmt.Errorf("create folder %s: %w", rel, err)
	}
	return nil
}

// rename moves from to to (both project-relative); it refuses to replace
// anything. A symlink is renamed itself, not its target. Safe for
// concurrent use.
func (t *fileTree) rename(from, to string) error {
	src, err := t.entryPath(from)
	if err != nil {
		return fmt.Errorf("rename %s: %w", from, err)
	}
	dst, err := t.entryPath(to)
	if err != nil {
		return fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	if _, err := os.Lstat(dst); err == nil {
		return fmt.Errorf("rename %s to %s: %w", from, to, fs.ErrExist)
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("rename %s to %s: %w", from, to, err)
	}
	return nil
}

// remove deletes rel, a folder with everything in it. A symlink is
// removed itself, never what it leads to. Safe for concurrent use.
func (t *fileTree) remove(rel string) error {
	abs, err := t.entryPath(rel)
	if err != nil {
		return fmt.Errorf("delete %s: %w", rel, err)
	}
	if err := os.RemoveAll(abs); err != nil {
		return fmt.Errorf("delete %s: %w", rel, err)
	}
	return nil
}

// entryPath returns the absolute path of the entry rel itself: its folder
// resolved inside the project, its own name not followed, so that a
// symlink is acted on rather than its target.
func (t *fileTree) entryPath(rel string) (string, error) {
	base := path.Base(rel)
	if rel == "" || base == "." || base == ".." || base == "/" {
		return "", fmt.Errorf("%q is not a file or folder in the project: %w", rel, fs.ErrInvalid)
	}
	cp, err := t.project.Resolve(parentDir(rel))
	if err != nil {
		return "", err
	}
	dir := cp.Abs()
	return filepath.Join(dir, base), nil
}

// validBaseName accepts one file or folder name.
func validBaseName(s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return errors.New("enter a name")
	case strings.ContainsAny(s, `/\`):
		return errors.New("a name cannot contain / or \\")
	case s == "." || s == "..":
		return errors.New("not a name")
	case s == ".git":
		return errors.New(".git is git's own folder")
	}
	return nil
}

// validNewName accepts a name or a relative slash path of names.
func validNewName(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return errors.New("enter a name")
	}
	if strings.HasPrefix(s, "/") || strings.Contains(s, `\`) {
		return errors.New("enter a name relative to the folder, with / between folders")
	}
	for _, part := range strings.Split(s, "/") {
		if err := validBaseName(part); err != nil {
			return err
		}
	}
	return nil
}

// displayDir names a tree folder for a person.
func displayDir(dir string) string {
	if dir == "" {
		return "the project folder"
	}
	return dir + "/"
}
