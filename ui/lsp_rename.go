package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"trestle/app/lsp"
	"trestle/app/project"
	"trestle/app/textbuf"
	"trestle/ui/editor"
)

// F2's rename, and its undo as one step for the whole window. gopls
// computes the rename; the open editors it touches are changed in place
// (unsaved, for the person to look over), the files that are not open are
// written to disk. The rename is recorded, and Edit ▸ Undo Rename, or
// Ctrl+Z in any editor it changed, takes it back everywhere: every editor
// and every written file returns to its text before the rename, or, when
// one of them changed since, nothing is undone and the notice names it.

// renameTimeout bounds gopls's computing of a rename.
const renameTimeout = 30 * time.Second

// renamedBuffer is an open editor a rename changed.
type renamedBuffer struct {
	tab      *fileTab
	e        *editor.Editor
	buf      *textbuf.Buffer // e's buffer at the rename (a reload replaces it)
	old, new string
	// before and after are buf's undo states around the rename: Ctrl+Z
	// that brings buf back to before is the rename's undo.
	before, after int
}

// renamedFile is a file a rename wrote to disk (it was not open).
type renamedFile struct {
	path     string
	old, new string
}

// renameRecord is one rename, undone as one step.
type renameRecord struct {
	name    string
	buffers []*renamedBuffer
	files   []renamedFile
	done    bool // undone, being undone, or followed by another rename
}

// renamer is the window's F2 rename part: it asks gopls for a rename,
// applies it to the open editors and the files on disk, and takes it back
// as one step. It reaches the window's tabs, project and gopls part through
// w; its state is the gopls part's renames. Main goroutine only.
type renamer struct{ w *Window }

// renameState is the window's last rename and the editors whose edits are
// watched for its undo. Main goroutine only.
type renameState struct {
	last   *renameRecord
	hooked map[*editor.Editor]bool
}

// at asks for a new name for the identifier at pos in path (F2) and
// renames it (see rename).
func (r *renamer) at(path string, pos lsp.Position, current string) {
	w := r.w
	entry := newEscEntry(w.dialogs)
	entry.SetText(current)
	d := dialog.NewForm("Rename "+current, "Rename", "Cancel", []*widget.FormItem{widget.NewFormItem("New name", entry)}, func(ok bool) {
		if ok && entry.Text != "" && entry.Text != current {
			r.rename(path, pos, entry.Text)
		}
	}, w.win)
	d.Resize(fyne.NewSize(renameDialogWidth, 0))
	w.dialogs.show(d)                              // the entry has the keyboard; Enter renames
	entry.TypedShortcut(&fyne.ShortcutSelectAll{}) // typing replaces the old name
}

// renameDialogWidth makes the rename field about 400 wide: a long Go
// identifier fits.
const renameDialogWidth = 540

// rename has gopls compute renaming the identifier at pos in path to
// newName, off the main goroutine, and applies it (applyRename). Main
// goroutine only.
func (r *renamer) rename(path string, pos lsp.Position, newName string) {
	w := r.w
	client, do := w.gopls.client, w.gopls.do
	for _, t := range w.tabs.byItem { // gopls renames the text as it is now in every editor
		if t.view != nil {
			t.view.SyncIntel() // only an editor that changed since it was last sent
		}
	}
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), renameTimeout)
		defer cancel()
		edits, err := client.Rename(ctx, path, pos, newName)
		for _, e := range edits {
			if filepath.IsAbs(e.Path) {
				err = fmt.Errorf("the rename would change %s, outside the project", e.Path)
				break
			}
		}
		do(func() {
			if err != nil {
				w.status.notify("Rename: " + err.Error())
				return
			}
			r.apply(edits, newName)
		})
	})
}

// apply writes the renamed text of the files that are not open,
// then changes the open editors, and records the rename for its undo. A
// file that changed while gopls computed the rename stops it whole.
// Main goroutine only.
func (r *renamer) apply(edits []lsp.FileEdit, newName string) {
	w := r.w
	rec := &renameRecord{name: newName}
	for _, fe := range edits {
		t := w.tabs.find(fe.Path)
		if t == nil || t.view == nil {
			rec.files = append(rec.files, renamedFile{path: fe.Path, old: fe.Old, new: fe.New})
			continue
		}
		rec.buffers = append(rec.buffers, &renamedBuffer{tab: t, e: t.view, buf: t.view.Buffer(), old: fe.Old, new: fe.New})
	}
	notMade := func(why string) { w.status.notify(fmt.Sprintf("Rename to %s not made: %s", newName, why)) }
	if why := rec.buffersAre(w.tabs, false, nil); why != "" {
		notMade(why + " while gopls computed the rename; try again")
		return
	}
	p, g := w.project, w.gopls
	w.loading.Go(func() {
		err := writeRenamed(p, rec.files, false)
		g.do(func() {
			if err != nil {
				notMade(err.Error())
				return
			}
			if why := rec.buffersAre(w.tabs, false, nil); why != "" {
				w.loading.Go(func() { writeRenamed(p, rec.files, true) })
				notMade(why + " while the rename was written; the written files were restored")
				return
			}
			for _, b := range rec.buffers {
				b.before = b.buf.SaveState()
				b.e.ReplaceAll(b.new)
				b.after = b.buf.SaveState()
			}
			g.client.FilesChanged(rec.paths()...)
			r.record(rec)
			w.status.notify(fmt.Sprintf("Renamed to %s in %s (%d open, unsaved: look them over, then File ▸ Save All; %d written to disk). "+
				"Edit ▸ Undo Rename or Ctrl+Z in one of them undoes it everywhere", newName, count(len(edits), "file", "files"), len(rec.buffers), len(rec.files)))
		})
	})
}

// buffersAre checks that every changed editor is still open with the
// same buffer holding its text before the rename (renamed false) or after
// it (renamed true), skipping skip; it says which is not, or "".
func (r *renameRecord) buffersAre(tabs *tabArea, renamed bool, skip *renamedBuffer) string {
	for _, b := range r.buffers {
		if b == skip {
			continue
		}
		want := b.old
		if renamed {
			want = b.new
		}
		if t := tabs.find(b.tab.path); t != b.tab || t.view != b.e || b.e.Buffer() != b.buf {
			return b.tab.path + " was closed or reloaded"
		}
		if b.buf.FileText() != want {
			return b.tab.path + " changed in its editor"
		}
	}
	return ""
}

// paths are the files the rename wrote to disk.
func (r *renameRecord) paths() []string {
	out := make([]string, 0, len(r.files))
	for _, f := range r.files {
		out = append(out, f.path)
	}
	return out
}

// writeRenamed writes each file's renamed text (undo false) or its text
// before the rename (undo true), after checking that the disk holds the
// other one; on a failure it puts back what it wrote and names the file.
// It does file I/O: never on the main goroutine.
func writeRenamed(p *project.Project, files []renamedFile, undo bool) error {
	pick := func(f renamedFile) (want, put string) {
		if undo {
			return f.new, f.old
		}
		return f.old, f.new
	}
	for i, f := range files {
		want, put := pick(f)
		err := checkDisk(p, f.path, want)
		if err == nil {
			err = saveFile(p, f.path, put)
		}
		if err != nil {
			for _, done := range files[:i] { // best effort: each was just written by us
				back, _ := pick(done)
				saveFile(p, done.path, back)
			}
			return err
		}
	}
	return nil
}

// errChangedOnDisk: a file no longer holds the text a rename left or found.
var errChangedOnDisk = errors.New("changed on disk")

func checkDisk(p *project.Project, rel, want string) error {
	cp, err := p.Resolve(rel)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, err)
	}
	b, err := os.ReadFile(cp.Abs())
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	if string(b) != want {
		return fmt.Errorf("%s %w", rel, errChangedOnDisk)
	}
	return nil
}

// record makes rec the rename that Undo Rename takes back, and
// watches its editors for a Ctrl+Z that undoes it in one of them.
// Main goroutine only.
func (r *renamer) record(rec *renameRecord) {
	w := r.w
	st := &w.gopls.renames
	if st.last != nil {
		st.last.done = true
	}
	st.last = rec
	if st.hooked == nil {
		st.hooked = map[*editor.Editor]bool{}
	}
	for _, b := range rec.buffers {
		if e := b.e; !st.hooked[e] {
			st.hooked[e] = true
			prev := e.OnEdit
			e.OnEdit = func() {
				if prev != nil {
					prev()
				}
				r.bufferEdited(e)
			}
		}
	}
}

// bufferEdited follows an edit of an editor a rename changed: an
// undo that brought it back to its text before the last rename undoes
// that rename everywhere else too. Typing costs nothing here: it leaves
// nothing to redo.
func (r *renamer) bufferEdited(e *editor.Editor) {
	w := r.w
	rec := w.gopls.renames.last
	if rec == nil || rec.done || !e.Buffer().CanRedo() {
		return
	}
	for _, b := range rec.buffers {
		if b.e == e && e.Buffer() == b.buf && e.Buffer().SaveState() == b.before && e.Buffer().FileText() == b.old {
			r.undo(rec, b)
			return
		}
	}
}

// undoRenameKey is Undo Rename's shortcut: Ctrl+Alt+Z (Ctrl+Z in an
// editor the rename changed does it too).
var undoRenameKey = &desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierAlt}

// menuItems are the Edit menu's rename entries.
func (r *renamer) menuItems() []*fyne.MenuItem {
	w := r.w
	return []*fyne.MenuItem{fyne.NewMenuItemSeparator(), menuItem("Undo Rename", undoRenameKey, func() {
		if w.gopls.client == nil {
			w.status.notify("Nothing to undo: no rename was made (Go intelligence is off)")
			return
		}
		r.undo(w.gopls.renames.last, nil)
	})}
}

// undo takes rec back in every editor and file it changed, or in
// none: by is the editor whose own Ctrl+Z undid it there already (nil from
// the menu), which is redone when the rest cannot be undone.
// Main goroutine only.
func (r *renamer) undo(rec *renameRecord, by *renamedBuffer) {
	w := r.w
	if rec == nil || rec.done {
		w.status.notify("Nothing to undo: no rename since the last one was undone or another one made")
		return
	}
	refuse := func(why string) {
		rec.done = false
		if by != nil && by.buf == by.e.Buffer() && by.buf.CanRedo() && by.buf.SaveState() == by.before {
			by.e.Redo() // all or nothing: the rename stays in the editor that undid it
			by.after = by.buf.SaveState()
		}
		w.status.notify(fmt.Sprintf("Undo Rename (to %s) refused: %s since the rename; nothing was undone", rec.name, why))
	}
	if why := rec.buffersAre(w.tabs, true, by); why != "" {
		refuse(why)
		return
	}
	var reopened []string // written files the person has opened since
	for _, f := range rec.files {
		if t := w.tabs.find(f.path); t != nil && t.view != nil {
			if t.view.Buffer().Modified() {
				refuse(f.path + " has unsaved changes in its editor")
				return
			}
			reopened = append(reopened, f.path)
		}
	}
	rec.done = true
	p, g := w.project, w.gopls
	w.loading.Go(func() {
		err := writeRenamed(p, rec.files, true)
		reloads := make([]loaded, 0, len(reopened))
		if err == nil {
			for _, rel := range reopened {
				if f, ferr := loadFile(p, rel); ferr == nil {
					reloads = append(reloads, f)
				}
			}
		}
		g.do(func() {
			if err != nil {
				refuse(err.Error())
				return
			}
			if why := rec.buffersAre(w.tabs, true, by); why != "" {
				w.loading.Go(func() { writeRenamed(p, rec.files, false) })
				refuse(why)
				return
			}
			r.finishUndo(rec, by, reloads)
		})
	})
}

// finishUndo restores the editors once the files are restored.
func (r *renamer) finishUndo(rec *renameRecord, by *renamedBuffer, reloads []loaded) {
	w := r.w
	for _, b := range rec.buffers {
		switch {
		case b == by:
		case b.buf.SaveState() == b.after:
			b.e.Undo() // the rename is the last edit: undo keeps its redo
		default:
			b.e.ReplaceAll(b.old)
		}
	}
	for _, f := range reloads {
		w.tabs.diskChanged(diskFile{f: f})
	}
	w.gopls.client.FilesChanged(rec.paths()...)
	names := make([]string, 0, len(rec.buffers)+len(rec.files))
	for _, b := range rec.buffers {
		names = append(names, b.tab.path)
	}
	names = append(names, rec.paths()...)
	w.status.notify(fmt.Sprintf("Undid the rename to %s in %s: %s", rec.name, count(len(names), "file", "files"), strings.Join(names, ", ")))
}
