package ui

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app"
)

// entry is one name in a project folder.
type entry struct {
	name string
	dir  bool // a folder the tree may open: inside the project, symlinks resolved
}

// listDir lists the project folder rel ("" for the root) for the tree:
// folders first, then files, each sorted case-insensitively, without .git.
// A symlink counts as a folder only when it leads to a folder inside the
// project; one that leads out is listed as a plain entry.
func listDir(p *app.Project, rel string) ([]entry, error) {
	abs, err := p.Resolve(rel)
	if err != nil {
		return nil, err
	}
	des, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", p.Rel(abs), err)
	}
	entries := make([]entry, 0, len(des))
	for _, de := range des {
		if de.Name() == ".git" {
			continue
		}
		dir := de.IsDir()
		if de.Type()&fs.ModeSymlink != 0 {
			dir = isProjectDir(p, path.Join(rel, de.Name()))
		}
		entries = append(entries, entry{name: de.Name(), dir: dir})
	}
	sortEntries(entries)
	return entries, nil
}

// isProjectDir reports whether rel resolves to a folder inside the project.
func isProjectDir(p *app.Project, rel string) bool {
	abs, err := p.Resolve(rel)
	if err != nil {
		return false
	}
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

// fileTree feeds a widget.Tree from the project folder. A folder is read
// once, the first time its branch opens. Its UIDs are project-relative
// slash paths, "" the root. Used on the main goroutine only.
type fileTree struct {
	project  *app.Project
	children map[string][]string // folder UID → child UIDs, read so far
	dirs     map[string]bool     // UIDs known to be folders
	failed   func(error)         // told when a folder cannot be read
}

func newFileTree(p *app.Project, failed func(error)) *fileTree {
	return &fileTree{project: p, children: map[string][]string{}, dirs: map[string]bool{}, failed: failed}
}

func (t *fileTree) childUIDs(uid string) []string {
	if ids, ok := t.children[uid]; ok {
		return ids
	}
	entries, err := listDir(t.project, uid)
	if err != nil {
		t.failed(err)
	}
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = path.Join(uid, e.name)
		t.dirs[ids[i]] = e.dir
	}
	t.children[uid] = ids
	return ids
}

func (t *fileTree) isBranch(uid string) bool {
	return uid == "" || t.dirs[uid]
}

func (t *fileTree) widget() *widget.Tree {
	return widget.NewTree(t.childUIDs, t.isBranch, newTreeNode, updateTreeNode)
}

func newTreeNode(bool) fyne.CanvasObject {
	return container.NewHBox(widget.NewIcon(nil), widget.NewLabel(""))
}

func updateTreeNode(uid string, branch bool, o fyne.CanvasObject) {
	box := o.(*fyne.Container)
	icon := theme.FileIcon()
	if branch {
		icon = theme.FolderIcon()
	}
	box.Objects[0].(*widget.Icon).SetResource(icon)
	box.Objects[1].(*widget.Label).SetText(path.Base(uid))
}
