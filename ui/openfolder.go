package ui

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
)

// maxFolderCompletions bounds the folders the Open Folder list shows.
const maxFolderCompletions = 200

// folderCompletions lists the folders that complete input: the
// subfolders of input's folder whose names start with its last element
// (hidden ones only when that starts with "."), sorted, as full paths.
// "~" stands for the home folder. It reads one folder.
func folderCompletions(input string) []string {
	input = expandHome(input)
	if input == "" {
		return nil
	}
	dir, prefix := filepath.Dir(input), filepath.Base(input)
	if strings.HasSuffix(input, string(filepath.Separator)) {
		dir, prefix = filepath.Clean(input), ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || strings.HasPrefix(name, ".") && !strings.HasPrefix(prefix, ".") {
			continue
		}
		full := filepath.Join(dir, name)
		if info, err := os.Stat(full); err == nil && info.IsDir() { // a symlink to a folder counts
			out = append(out, full)
		}
		if len(out) == maxFolderCompletions {
			break
		}
	}
	sort.Strings(out)
	return out
}

// commonPrefix is the longest prefix that every string of list shares.
func commonPrefix(list []string) string {
	if len(list) == 0 {
		return ""
	}
	p := list[0]
	for _, s := range list[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return home + p[1:]
		}
	}
	return p
}

// openFolderDialog is Open Folder: a path line with completion (Tab
// completes, Up/Down pick from the folders listed under it, Enter opens)
// and the stock folder dialog one button away. Main goroutine only.
type openFolderDialog struct {
	path    *pathEntry
	list    *escList
	matches []string
	cursor  int
	dialog  dialog.Dialog
	open    func(dir string)
	browse  func()
	// async runs a folder read (a goroutine in the window, inline in
	// tests), which hands its answer to the main goroutine.
	async func(fn func())
	main  *mainThread // the window's way onto the main goroutine
}

func newOpenFolderDialog(start string, open func(dir string), browse func()) *openFolderDialog {
	d := &openFolderDialog{open: open, browse: browse, async: func(fn func()) { go fn() }}
	d.path = newPathEntry(d)
	d.path.SetText(start)
	d.path.OnChanged = func(string) { d.refresh() }
	d.path.OnSubmitted = func(string) { d.choose() }
	d.list = newEscList(func() int { return len(d.matches) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			l.SetText(filepath.Base(d.matches[id]) + string(filepath.Separator))
			l.Importance = widget.MediumImportance
			if id == d.cursor {
				l.Importance = widget.HighImportance
			}
		})
	d.list.OnSelected = func(id widget.ListItemID) {
		d.list.Unselect(id)
		if id < len(d.matches) {
			d.path.SetText(d.matches[id] + string(filepath.Separator))
			d.path.CursorColumn = len([]rune(d.path.Text))
		}
	}
	return d
}

// content is the dialog's body.
func (d *openFolderDialog) content() fyne.CanvasObject {
	hint := widget.NewLabel("Tab completes, Up/Down pick, Enter opens, Escape closes.")
	hint.Importance = widget.LowImportance
	browse := newEscButton("Browse…", func() {
		d.dialog.Hide()
		d.browse()
	})
	top := container.NewBorder(nil, hint, nil, browse, d.path)
	return container.NewBorder(top, nil, nil, nil, d.list)
}

func (d *openFolderDialog) refresh() {
	text := d.path.Text
	d.async(func() {
		matches := folderCompletions(text)
		d.main.do(func() {
			if d.path.Text != text {
				return // typed on since
			}
			d.matches, d.cursor = matches, 0
			d.list.Refresh()
			d.list.ScrollToTop()
		})
	})
}

// complete is Tab: the path grows to what every listed folder shares, and
// a single folder gets its separator.
func (d *openFolderDialog) complete() {
	switch len(d.matches) {
	case 0:
		return
	case 1:
		d.path.SetText(d.matches[0] + string(filepath.Separator))
	default:
		if p := commonPrefix(d.matches); len(p) > len(expandHome(d.path.Text)) {
			d.path.SetText(p)
		}
	}
	d.path.CursorColumn = len([]rune(d.path.Text))
}

func (d *openFolderDialog) move(by int) {
	if len(d.matches) > 0 {
		d.cursor = max(0, min(len(d.matches)-1, d.cursor+by))
		d.list.Refresh()
		d.list.ScrollTo(d.cursor)
	}
}

// choose is Enter: the typed folder when it is one, else the picked one.
func (d *openFolderDialog) choose() {
	dir := expandHome(strings.TrimSpace(d.path.Text))
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		if d.cursor >= len(d.matches) {
			return
		}
		dir = d.matches[d.cursor]
	}
	d.dialog.Hide()
	d.open(filepath.Clean(dir))
}

// pathEntry is the Open Folder path line; it gives Tab, Up, Down and
// Escape to its dialog.
type pathEntry struct {
	widget.Entry
	d *openFolderDialog
}

func newPathEntry(d *openFolderDialog) *pathEntry {
	e := &pathEntry{d: d}
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab keeps Tab for completion instead of moving the focus.
func (e *pathEntry) AcceptsTab() bool { return true }

// TypedKey implements fyne.Focusable.
func (e *pathEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyTab:
		e.d.complete()
	case fyne.KeyUp:
		e.d.move(-1)
	case fyne.KeyDown:
		e.d.move(1)
	case fyne.KeyEscape:
		e.d.dialog.Hide()
	default:
		e.Entry.TypedKey(k)
	}
}

// openFolder asks for a folder, by path with completion or through the
// stock dialog, and opens it in a new window. It must be called on the
// main goroutine.
func (m *menuUI) openFolder() {
	w := m.w
	start := filepath.Dir(w.project.Root) + string(filepath.Separator)
	d := newOpenFolderDialog(start, m.openWindow, m.browseFolder)
	d.main = w.main
	d.async = w.files.async // the tree's folder reads: off the main goroutine (inline in tests)
	d.dialog = dialog.NewCustomConfirm("Open Folder", "Open", "Cancel", d.content(), func(ok bool) {
		if ok {
			d.choose()
		}
	}, w.win)
	size := w.win.Canvas().Size()
	d.dialog.Resize(fyne.NewSize(min(size.Width-60, 640), min(size.Height-60, 420)))
	w.dialogs.show(d.dialog)
	w.win.Canvas().Focus(d.path)
	d.path.CursorColumn = len([]rune(d.path.Text))
	d.refresh()
	m.openFolderShown = d
}

// browseFolder is the stock folder dialog.
func (m *menuUI) browseFolder() {
	w := m.w
	fd := dialog.NewFolderOpen(func(uri fyne.ListableURI, err error) {
		if err != nil {
			w.dialogs.showError(err)
			return
		}
		if uri != nil {
			m.openWindow(uri.Path())
		}
	}, w.win)
	fd.SetLocation(projectParent(w.project.Root)) // else Fyne starts in the app's own storage folder
	fd.Show()
}

// projectParent is the folder holding root, for a folder dialog to start
// in; nil when it cannot be listed.
func projectParent(root string) fyne.ListableURI {
	l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(root)))
	if err != nil {
		return nil
	}
	return l
}
