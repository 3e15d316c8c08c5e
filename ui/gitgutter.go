package ui

import (
	"context"
	"path/filepath"
	"strings"

	"trestle/app/gitstatus"
)

// The editor's gutter marks the lines changed against git's HEAD: added,
// modified, and where lines were deleted. HEAD's text is read once a tab
// opens (and again when git status is read again, after a commit say);
// the marks follow the person's typing, debounced, computed off the main
// goroutine from the text they see.

// gitUI is the window's git part: the Changes pane's status and diffs
// (gitpane.go), the tree's tints and the branch in the status bar, and the
// editors' gutter marks. It reaches the window's project, tabs, tree and
// panes through w. Main goroutine only, except where a method says.
type gitUI struct{ w *Window }

// attachGutter hooks the gutter to the tabs. It must be called on the
// main goroutine, once, as the window is built.
func (g *gitUI) attachGutter() {
	w := g.w
	w.tabs.onAdded(g.readHead)
	w.tabs.onSaved(g.markChanges)
	w.tabs.onTyped(func(t *fileTab) {
		if t.headKnown {
			g.markChangesSoon(t)
		}
	})
}

// readHead reads t's text at HEAD off the main goroutine, then marks its
// lines. A file outside a repository, or git missing, marks nothing.
func (g *gitUI) readHead(t *fileTab) {
	w := g.w
	abs := filepath.Join(w.project.Root, filepath.FromSlash(t.path))
	root, trusted := w.project.Root, w.services.Trust.Trusted()
	w.files.async(func() {
		repo, ok := gitstatus.Find(root)
		if !ok {
			return
		}
		repo.Trusted = trusted
		head, exists, err := gitstatus.HeadText(context.Background(), repo, abs)
		if err != nil {
			return // the gutter stays plain; git status shows what is wrong
		}
		head = strings.ReplaceAll(head, "\r\n", "\n") // the editor's lines end in LF
		w.onMain(func() {
			t.head, t.headKnown = head, true
			if !exists {
				t.head = "" // a new file: every line is added
			}
			g.markChanges(t)
		})
	})
}

// markChangesSoon marks t's lines after gitRefreshDelay, once for a burst
// of keystrokes.
func (g *gitUI) markChangesSoon(t *fileTab) {
	w := g.w
	later := w.panes.git.later
	if later == nil {
		return
	}
	if t.gitTimer != nil {
		t.gitTimer.Stop()
	}
	t.gitTimer = later(gitRefreshDelay, func() { g.markChanges(t) })
}

// markChanges diffs t's text against its HEAD text off the main goroutine
// and shows the marks. Main goroutine only.
func (g *gitUI) markChanges(t *fileTab) {
	w := g.w
	if t.view == nil || !t.headKnown {
		return
	}
	head, snap, version := t.head, t.view.Buffer().Snapshot(), t.view.Version() // joined off the main goroutine
	w.files.async(func() {
		marks := gitstatus.LineChanges(head, snap.Text())
		w.onMain(func() {
			if t.view.Version() == version { // a later edit brings its own
				t.view.SetGitMarks(marks)
			}
		})
	})
}

// rereadHeads reads HEAD again for every open tab (a commit moves it).
// Main goroutine only.
func (g *gitUI) rereadHeads() {
	w := g.w
	for _, t := range w.tabs.byItem {
		if t.view != nil {
			g.readHead(t)
		}
	}
}
