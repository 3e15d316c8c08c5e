package ui

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/gitstatus"
	"trestle/app/project"
	"trestle/app/watch"
	"trestle/ui/review"
)

// gitRefreshDelay gathers the changes of a save, a checkout or a build into
// one git status: long enough for a burst of events, short enough that
// the pane follows the person's own saves at once.
const gitRefreshDelay = 300 * time.Millisecond

// gitEntry is one changed file as the Changes pane lists it.
type gitEntry struct {
	code string // "M ", " M", "A ", "??", ...: git's two status letters
	path string // project-relative, forward slashes
}

// what is how a person reads the status letters.
func (g gitEntry) what() string {
	switch c := strings.TrimSpace(g.code); {
	case c == "??":
		return "untracked"
	case strings.Contains(c, "D"):
		return "deleted"
	case strings.Contains(c, "A"):
		return "added"
	case strings.Contains(c, "R"):
		return "renamed"
	case strings.Contains(c, "U"):
		return "conflict"
	default:
		return "modified"
	}
}

// gitPane is the Changes tab: the branch and the files git sees changed
// against HEAD (modified, added, deleted, untracked); a click shows the
// file's diff against HEAD. It is read off the main goroutine, after the
// project's files change and on Refresh. Main goroutine only, except where
// a method says otherwise.
type gitPane struct {
	head    *widget.Label
	list    *widget.List
	entries []gitEntry
	content fyne.CanvasObject
	timer   *time.Timer
	// later runs fn on the main goroutine after d (tests make it do
	// nothing: the test driver would run it beside the test).
	later func(d time.Duration, fn func()) *time.Timer
	// refresh reads git status again (the window's refreshGit).
	refresh func()
}

func newGitPane(refresh func(), open func(gitEntry)) *gitPane {
	g := &gitPane{head: widget.NewLabel("Reading git status…"), refresh: refresh}
	g.later = (*mainThread)(nil).after
	g.head.Truncation = fyne.TextTruncateEllipsis
	g.list = widget.NewList(func() int { return len(g.entries) },
		func() fyne.CanvasObject {
			what := widget.NewLabel("untracked")
			what.Importance = widget.LowImportance
			return container.NewBorder(nil, nil, what, nil, widget.NewLabel(""))
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(g.entries) {
				return
			}
			e := g.entries[id]
			row := o.(*fyne.Container)
			for _, obj := range row.Objects {
				l := obj.(*widget.Label)
				if l.Importance == widget.LowImportance {
					l.SetText(e.what())
				} else {
					l.SetText(e.path)
				}
			}
		})
	g.list.OnSelected = func(id widget.ListItemID) {
		g.list.Unselect(id)
		if id < len(g.entries) {
			open(g.entries[id])
		}
	}
	bar := container.NewBorder(nil, nil, nil, widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), refresh), g.head)
	g.content = container.NewBorder(bar, nil, nil, nil, g.list)
	return g
}

// show lists a status read from root (the project folder, which may be
// below the repository's).
func (g *gitPane) show(st gitstatus.Status, ok bool, err error) {
	switch {
	case err != nil:
		g.head.SetText("git: " + err.Error())
		g.entries = nil
	case !ok:
		g.head.SetText("Not a git repository (or git is not installed).")
		g.entries = nil
	default:
		g.entries = entriesOf(st)
		branch := st.Branch
		if branch == "" {
			branch = "detached at " + shortHash(st.Head)
		}
		text := branch + " — " + changedCount(len(g.entries))
		if st.Truncated {
			text += " (the first " + strconv.Itoa(gitstatus.MaxFiles) + ")"
		}
		g.head.SetText(text)
	}
	g.list.Refresh()
}

func changedCount(n int) string {
	switch n {
	case 0:
		return "no changes"
	case 1:
		return "1 changed file"
	}
	return strconv.Itoa(n) + " changed files"
}

func shortHash(h string) string {
	if len(h) > 8 {
		return h[:8]
	}
	return h
}

// entriesOf turns git's "XY path" lines into entries. Porcelain paths are
// relative to the folder git ran in: the project's.
func entriesOf(st gitstatus.Status) []gitEntry {
	out := make([]gitEntry, 0, len(st.Changed))
	for _, c := range st.Changed {
		if len(c) < 4 {
			continue
		}
		p := c[3:]
		if i := strings.Index(p, "\t"); i >= 0 { // a rename: "new\told"
			p = p[:i]
		}
		out = append(out, gitEntry{code: c[:2], path: filepath.ToSlash(p)})
	}
	return out
}

// makeGitPane is the Changes pane's entry in paneParts: it reads git
// status when the window starts watching the disk (Watch) and again after
// the project's files change.
func makeGitPane(w *Window) pane {
	w.panes.git = newGitPane(w.git.refresh, w.git.showDiff)
	w.panes.git.later = w.main.after
	return w.panes.git
}

func (g *gitPane) paneTitle() string                 { return "Changes" }
func (g *gitPane) paneContent() fyne.CanvasObject    { return g.content }
func (g *gitPane) paneFocus() fyne.Focusable         { return nil }
func (g *gitPane) agentText(int) (name, text string) { return "", "" }

// filesChanged reads git status after gitRefreshDelay, once for a burst.
func (g *gitPane) filesChanged([]watch.Event) {
	if g.timer != nil {
		g.timer.Stop()
	}
	if g.later == nil {
		return
	}
	g.timer = g.later(gitRefreshDelay, g.refresh)
}

// refresh reads git status off the main goroutine and shows it in the
// pane, the tree's tints and the status bar's branch.
func (g *gitUI) refresh() {
	w := g.w
	root, trusted := w.project.Root, w.services.Trust.Trusted()
	w.files.async(func() {
		st, ok, err := gitstatus.Read(context.Background(), root, trusted)
		w.onMain(func() {
			w.panes.git.show(st, ok, err)
			w.files.setChanged(w.panes.git.entries)
			w.status.setBranch(st.Branch, ok && err == nil)
			g.rereadHeads()
		})
	})
}

// showDiff opens the diff of a changed file against HEAD, read off the
// main goroutine, in a dialog like a change set's file. It must be called
// on the main goroutine.
func (g *gitUI) showDiff(e gitEntry) {
	w := g.w
	p, trusted := w.project, w.services.Trust.Trusted()
	w.files.async(func() {
		fc, err := gitFileChange(p, e, trusted)
		w.onMain(func() {
			if err != nil {
				w.dialogs.showError(err)
				return
			}
			grid := review.NewDiffGrid(fc)
			d := dialog.NewCustom(e.path+" — "+e.what()+" against HEAD", "Close", container.NewScroll(grid), w.win)
			size := w.win.Canvas().Size()
			d.Resize(fyne.NewSize(min(size.Width-40, 1000), min(size.Height-40, 640)))
			w.dialogs.show(d)
		})
	})
}

// gitFileChange is a changed file as a FileChange from HEAD's text to the
// disk's, for the diff view. It runs git and reads the file: never on the
// main goroutine. trusted is the project's trust (gitstatus.Repository).
func gitFileChange(p *project.Project, e gitEntry, trusted bool) (changeset.FileChange, error) {
	fc := changeset.FileChange{Path: e.path, Action: changeset.ActionReplace}
	cp, err := p.Resolve(e.path) // a deleted file resolves through its folder
	if err != nil {
		return fc, err
	}
	abs := cp.Abs()
	if repo, ok := gitstatus.Find(p.Root); ok {
		repo.Trusted = trusted
		head, exists, err := gitstatus.HeadText(context.Background(), repo, abs)
		if err != nil {
			return fc, err
		}
		fc.Base, fc.BaseExists = head, exists
	}
	f, err := p.Read(cp)
	switch {
	case errors.Is(err, errdefs.ErrNotFound), errors.Is(err, os.ErrNotExist):
		fc.Action = changeset.ActionDelete
	case err != nil:
		return fc, err
	default:
		fc.New = f.Text
	}
	if !fc.BaseExists {
		fc.Action = changeset.ActionCreate
	}
	return fc, nil
}

// setChanged tints the tree's changed files, and the folders holding them.
// Main goroutine only.
func (t *fileTree) setChanged(entries []gitEntry) {
	changed := map[string]widget.Importance{}
	for _, e := range entries {
		imp := widget.WarningImportance
		if w := e.what(); w == "untracked" || w == "added" {
			imp = widget.SuccessImportance
		}
		changed[e.path] = imp
		for dir := path.Dir(e.path); dir != "." && dir != "/"; dir = path.Dir(dir) {
			if _, ok := changed[dir]; !ok {
				changed[dir] = widget.WarningImportance
			}
		}
	}
	t.changed = changed
	if t.tree != nil {
		t.tree.Refresh()
	}
}
