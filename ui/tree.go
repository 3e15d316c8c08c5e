package ui

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/ignore"
	"trestle/app/project"
	"trestle/app/watch"
)

// entry is one name in a project folder.
type entry struct {
	name    string
	dir     bool // a folder the tree may open: inside the project, symlinks resolved
	ignored bool // .gitignore ignores it
}

// listDir lists the project folder rel ("" for the root) for the tree:
// folders first, then files, each sorted case-insensitively, without .git.
// A symlink counts as a folder only when it leads to a folder inside the
// project; one that leads out is listed as a plain entry. Safe for
// concurrent use.
func listDir(p *project.Project, ig *ignore.Matcher, rel string) ([]entry, error) {
	cp, err := p.Resolve(rel)
	if err != nil {
		return nil, err
	}
	abs := cp.Abs()
	des, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", p.Rel(abs), err)
	}
	entries := make([]entry, 0, len(des))
	for _, de := range des {
		if de.Name() == ".git" {
			continue
		}
		child := path.Join(rel, de.Name())
		dir := de.IsDir()
		if de.Type()&fs.ModeSymlink != 0 {
			dir = isProjectDir(p, child)
		}
		entries = append(entries, entry{name: de.Name(), dir: dir, ignored: ig.Ignored(child, dir)})
	}
	sortEntries(entries)
	return entries, nil
}

// isProjectDir reports whether rel resolves to a folder inside the project.
func isProjectDir(p *project.Project, rel string) bool {
	cp, err := p.Resolve(rel)
	if err != nil {
		return false
	}
	abs := cp.Abs()
	info, err := os.Stat(abs)
	return err == nil && info.IsDir()
}

// sortEntries puts folders first, then files, each case-insensitively.
func sortEntries(entries []entry) {
	sort.Slice(entries, func(i, j int) bool {
		a, b := entries[i], entries[j]
		if a.dir != b.dir {
			return a.dir
		}
		if la, lb := strings.ToLower(a.name), strings.ToLower(b.name); la != lb {
			return la < lb
		}
		return a.name < b.name
	})
}

// loadedSet is the set of folders the tree has read. Written on the main
// goroutine, read from the watcher's; safe for concurrent use.
type loadedSet struct {
	mu   sync.Mutex
	dirs map[string]bool
}

func (s *loadedSet) set(dir string, loaded bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dirs == nil {
		s.dirs = map[string]bool{}
	}
	if loaded {
		s.dirs[dir] = true
	} else {
		delete(s.dirs, dir)
	}
}

// under returns the loaded folders that are dir or below it.
func (s *loadedSet) under(dir string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for d := range s.dirs {
		if isWithin(dir, d) {
			out = append(out, d)
		}
	}
	return out
}

func (s *loadedSet) has(dir string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dirs[dir]
}

// isWithin reports whether the slash path p is dir or below it ("" is the root).
func isWithin(dir, p string) bool {
	return dir == "" || p == dir || strings.HasPrefix(p, dir+"/")
}

// fileTree feeds a widget.Tree from the project folder. A folder is read
// the first time its branch opens, and again when the watcher says its
// entries changed. Its UIDs are project-relative slash paths, "" the root.
// Used on the main goroutine, except where a method says otherwise.
type fileTree struct {
	dialogs     *dialogStack // the window's (escape.go)
	project     *project.Project
	ignore      *ignore.Matcher              // safe for concurrent use
	hideIgnored bool                         // hide what .gitignore ignores instead of dimming it
	children    map[string][]string          // folder UID → child UIDs, read so far
	dirs        map[string]bool              // UIDs known to be folders
	ignored     map[string]bool              // UIDs .gitignore ignores
	changed     map[string]widget.Importance // UIDs git sees changed, and their folders: their tint
	loaded      loadedSet                    // the keys of children, for the watcher's goroutine
	failed      func(error)                  // told when a folder cannot be read
	tree        *projectTree
	win         fyne.Window      // parent of the context menu's dialogs
	open        func(rel string) // opens a file in the editor
	io          sync.WaitGroup   // file operations started by the context menu, and folder reads
	// async runs a first read of a folder off the main goroutine once the
	// window is up (New sets it); nil reads at once, as New does for the root.
	async   func(func())
	reading map[string]bool // folders being read by async
	// do shows a read on the main goroutine: the window's onMain, which
	// drops it once the window is closing.
	do func(func())
}

func newFileTree(p *project.Project, failed func(error)) *fileTree {
	return &fileTree{
		project: p, ignore: p.Ignore(), failed: failed,
		children: map[string][]string{}, dirs: map[string]bool{}, ignored: map[string]bool{},
		reading: map[string]bool{},
		do:      (*mainThread)(nil).do, // the window sets its own, which knows it is closing
	}
}

// childUIDs returns the children of folder uid. A folder not read yet is
// read off the main goroutine (with async set) and shows once it is; until
// then it has no children. Main goroutine only.
func (t *fileTree) childUIDs(uid string) []string {
	if ids, ok := t.children[uid]; ok {
		return ids
	}
	if t.async == nil {
		entries, err := listDir(t.project, t.ignore, uid)
		return t.show(uid, entries, err)
	}
	if !t.reading[uid] {
		t.reading[uid] = true
		t.async(func() { t.read(uid) })
	}
	return t.children[uid] // nil until the read shows (tests may read inline)
}

// read lists folder uid off the main goroutine and shows it on the main one.
func (t *fileTree) read(uid string) {
	entries, err := listDir(t.project, t.ignore, uid)
	t.do(func() {
		delete(t.reading, uid)
		t.show(uid, entries, err)
		if t.tree != nil {
			t.tree.Refresh()
		}
	})
}

// show records a folder's listing, or reports why it could not be read.
func (t *fileTree) show(uid string, entries []entry, err error) []string {
	if err != nil {
		t.failed(err)
	}
	return t.setChildren(uid, entries)
}

// setChildren records the entries of the folder uid and forgets what was
// read below folders that are gone.
func (t *fileTree) setChildren(uid string, entries []entry) []string {
	shown := make([]entry, 0, len(entries))
	isDir := map[string]bool{}
	for _, e := range entries {
		if !e.ignored || !t.hideIgnored {
			shown = append(shown, e)
			isDir[path.Join(uid, e.name)] = e.dir
		}
	}
	for _, old := range t.children[uid] {
		if dir, ok := isDir[old]; !ok || dir != t.dirs[old] {
			t.forget(old) // gone, or a file now where a folder was
		}
	}
	ids := make([]string, len(shown))
	for i, e := range shown {
		ids[i] = path.Join(uid, e.name)
		t.dirs[ids[i]], t.ignored[ids[i]] = e.dir, e.ignored
	}
	t.children[uid] = ids
	t.loaded.set(uid, true)
	return ids
}

// forget drops uid and everything read below it.
func (t *fileTree) forget(uid string) {
	for _, child := range t.children[uid] {
		t.forget(child)
	}
	delete(t.children, uid)
	delete(t.dirs, uid)
	delete(t.ignored, uid)
	t.loaded.set(uid, false)
}

func (t *fileTree) isBranch(uid string) bool {
	return uid == "" || t.dirs[uid]
}

// listing is one folder read again after a change.
type listing struct {
	entries []entry
	err     error
}

// reread reads again the loaded folders whose entries events may have
// changed, and forgets the .gitignore files they touch. It does file I/O:
// call it off the main goroutine (it is safe for concurrent use) and hand
// the result to apply on the main goroutine.
func (t *fileTree) reread(events []watch.Event) map[string]listing {
	dirs := map[string]bool{}
	for _, e := range events {
		switch {
		case e.Path == watch.All:
			t.ignore.Forget("")
			return t.readDirs(t.loaded.under(""))
		case path.Base(e.Path) == ".gitignore":
			parent := parentDir(e.Path)
			t.ignore.Forget(parent)
			for _, d := range t.loaded.under(parent) {
				dirs[d] = true
			}
		case e.Op != watch.Changed: // a write changes no folder's entries
			dirs[parentDir(e.Path)] = true
		}
	}
	var list []string
	for d := range dirs {
		if t.loaded.has(d) {
			list = append(list, d)
		}
	}
	return t.readDirs(list)
}

// readDirs lists dirs. Safe for concurrent use.
func (t *fileTree) readDirs(dirs []string) map[string]listing {
	out := make(map[string]listing, len(dirs))
	for _, d := range dirs {
		entries, err := listDir(t.project, t.ignore, d)
		out[d] = listing{entries, err}
	}
	return out
}

// apply shows folders read again by reread; open branches stay open. A
// folder that cannot be read any more (it was removed) is forgotten. It
// must be called on the main goroutine.
func (t *fileTree) apply(reads map[string]listing) {
	if len(reads) == 0 {
		return
	}
	for dir, l := range reads {
		if _, ok := t.children[dir]; !ok {
			continue // forgotten meanwhile, or never opened
		}
		if l.err != nil && dir != "" {
			t.forget(dir)
			continue
		}
		t.setChildren(dir, l.entries)
	}
	if t.tree != nil {
		t.tree.Refresh()
	}
}

// parentDir returns the folder holding the slash path p ("" for the root).
func parentDir(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// widget builds the tree widget; call it once.
func (t *fileTree) widget() *projectTree {
	pt := &projectTree{onMenu: t.showMenu}
	pt.ChildUIDs, pt.IsBranch = t.childUIDs, t.isBranch
	pt.CreateNode = func(bool) fyne.CanvasObject { return newTreeItem(t) }
	pt.UpdateNode = t.updateNode
	pt.ExtendBaseWidget(pt)
	t.tree = pt
	return pt
}

// updateNode shows uid in the item o: a folder or file icon and the name,
// dimmed when .gitignore ignores it.
func (t *fileTree) updateNode(uid string, branch bool, o fyne.CanvasObject) {
	item := o.(*treeItem)
	item.uid = uid
	icon := theme.FileIcon()
	if branch {
		icon = theme.FolderIcon()
	}
	item.icon.SetResource(icon)
	importance := widget.MediumImportance
	if imp, ok := t.changed[uid]; ok {
		importance = imp
	}
	if t.ignored[uid] {
		importance = widget.LowImportance
	}
	if item.label.Importance != importance {
		item.label.Importance = importance
		item.label.Refresh()
	}
	item.label.SetText(path.Base(uid))
}

// projectTree is the file tree widget: a widget.Tree where Enter opens the
// focused item like Space, and a secondary tap on the empty area offers to
// create at the project root. Used on the main goroutine.
type projectTree struct {
	widget.Tree
	onMenu func(uid string, pos fyne.Position)
}

// treeMinWidth is the narrowest the file tree gets, however the split is
// dragged or was stored: room for a name like "hashmap_test.go" two
// folders deep (at 1024 px the tree had shrunk to 75 px, names cut).
const treeMinWidth = 200

// MinSize keeps the tree at least treeMinWidth wide: the split beside it
// gives it no less.
func (t *projectTree) MinSize() fyne.Size {
	s := t.Tree.MinSize()
	s.Width = max(s.Width, treeMinWidth)
	return s
}

// TypedKey treats Enter and Return as Space: open the focused item.
func (t *projectTree) TypedKey(ev *fyne.KeyEvent) {
	if passWindowKey(t, ev) {
		return
	}
	if ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter {
		ev = &fyne.KeyEvent{Name: fyne.KeySpace, Physical: ev.Physical}
	}
	t.Tree.TypedKey(ev)
}

// TappedSecondary shows the root's context menu.
func (t *projectTree) TappedSecondary(ev *fyne.PointEvent) {
	t.onMenu("", ev.AbsolutePosition)
}

// treeItem is one row of the tree: icon and name. It takes the row's taps:
// a tap selects the row as the tree would, a secondary tap shows the
// context menu. Used on the main goroutine.
type treeItem struct {
	widget.BaseWidget
	icon  *widget.Icon
	label *widget.Label
	uid   string
	tree  *fileTree
}

func newTreeItem(t *fileTree) *treeItem {
	item := &treeItem{icon: widget.NewIcon(nil), label: widget.NewLabel(""), tree: t}
	item.ExtendBaseWidget(item)
	return item
}

// CreateRenderer lays the icon and the name out in a row.
func (i *treeItem) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewHBox(i.icon, i.label))
}

// Tapped selects the row and focuses the tree, as a tap on a tree row does.
func (i *treeItem) Tapped(*fyne.PointEvent) {
	pt := i.tree.tree
	if c := fyne.CurrentApp().Driver().CanvasForObject(pt); c != nil && c.Focused() != pt {
		c.Focus(pt)
	}
	pt.Select(i.uid) // last: selecting a file starts reading it
}

// TappedSecondary shows the row's context menu.
func (i *treeItem) TappedSecondary(ev *fyne.PointEvent) {
	i.tree.showMenu(i.uid, ev.AbsolutePosition)
}
