package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"trestle/app/project"
	"trestle/app/search"
)

// searchLimit is the most matches the Search pane lists: enough to scan by
// eye, few enough that the list stays light; the pane says when it cut.
const searchLimit = 2000

// searchRow is one row of the Search pane: a file heading (match < 0) or
// one match under it.
type searchRow struct {
	path  string
	count int // matches in the file, for a heading
	match search.Match
	head  bool
}

// searchPane is find in files (Ctrl+Shift+F): a pattern with regexp, case
// and glob options over the project (app/search, as trestle_search), the
// results grouped by file; a click opens the file at the match. Searches
// run off the main goroutine; a new one cancels the last. Main goroutine
// only, except where a method says otherwise.
type searchPane struct {
	pattern, glob *widget.Entry
	replace       *widget.Entry
	// onReplace replaces, in the person's editors, every match of q in
	// files with repl (set by the window).
	onReplace         func(q search.Query, repl string, files []string)
	regexp, matchCase *widget.Check
	status            *widget.Label
	list              *widget.List
	rows              []searchRow
	content           fyne.CanvasObject

	cancel context.CancelFunc // the running search, or nil
	gen    int                // counts searches; a late result of an older one is dropped
	run    func(ctx context.Context, q search.Query) (search.Result, error)
	open   func(rel string, line int)
	async  func(func()) // runs a search; the window's is a goroutine
	main   *mainThread  // the window's way onto the main goroutine; nil outside a window
}

// newSearchPane searches p with its one .gitignore matcher (the one
// trestle_search and the file tree use, told of changes by the watcher).
func newSearchPane(p *project.Project, open func(rel string, line int)) *searchPane {
	s := &searchPane{open: open, async: func(fn func()) { go fn() }}
	s.run = func(ctx context.Context, q search.Query) (search.Result, error) {
		return search.Run(ctx, p.Root, q, search.Options{Ignored: p.Ignore().Ignored})
	}
	s.pattern = widget.NewEntry()
	s.pattern.SetPlaceHolder("Search the project — Enter searches")
	s.pattern.OnSubmitted = func(string) { s.search() }
	s.glob = widget.NewEntry()
	s.glob.SetPlaceHolder("files, e.g. *.go")
	s.glob.OnSubmitted = func(string) { s.search() }
	s.replace = widget.NewEntry()
	s.replace.SetPlaceHolder("Replace with ($1 for a group with Regexp)")
	replaceAll := widget.NewButton("Replace All…", s.replaceAll)
	s.regexp = widget.NewCheck("Regexp", func(bool) { s.search() })
	s.matchCase = widget.NewCheck("Match case", func(bool) { s.search() })
	s.status = widget.NewLabel("")
	s.status.Truncation = fyne.TextTruncateEllipsis
	s.list = widget.NewList(func() int { return len(s.rows) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.ListItemID, o fyne.CanvasObject) { s.updateRow(id, o.(*widget.Label)) })
	s.list.OnSelected = func(id widget.ListItemID) {
		s.list.Unselect(id)
		if id < len(s.rows) {
			r := s.rows[id]
			s.open(r.path, r.match.Line)
		}
	}
	options := container.NewHBox(s.regexp, s.matchCase)
	bar := container.NewBorder(nil, nil, nil, options, container.NewGridWithColumns(2, s.pattern, s.glob))
	replaceBar := container.NewBorder(nil, nil, nil, replaceAll, s.replace)
	s.content = container.NewBorder(container.NewVBox(bar, replaceBar, s.status), nil, nil, nil, s.list)
	return s
}

func (s *searchPane) updateRow(id widget.ListItemID, l *widget.Label) {
	if id >= len(s.rows) {
		return
	}
	r := s.rows[id]
	if r.head {
		l.TextStyle = fyne.TextStyle{Bold: true}
		l.SetText(fmt.Sprintf("%s  (%d)", r.path, r.count))
		return
	}
	l.TextStyle = fyne.TextStyle{}
	l.SetText(fmt.Sprintf("    %d:%d  %s", r.match.Line, r.match.Column, strings.TrimSpace(r.match.Text)))
}

// query is what the fields ask for.
func (s *searchPane) query() search.Query {
	return search.Query{Pattern: s.pattern.Text, Regexp: s.regexp.Checked, IgnoreCase: !s.matchCase.Checked,
		Glob: strings.TrimSpace(s.glob.Text), Limit: searchLimit}
}

// search starts a search for what the fields say, cancelling the last.
func (s *searchPane) search() {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.gen++
	q := s.query()
	if q.Pattern == "" {
		s.show(nil, "")
		return
	}
	gen := s.gen
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.status.SetText("Searching…")
	s.async(func() {
		res, err := s.run(ctx, q)
		s.main.do(func() {
			if gen != s.gen {
				return // a newer search replaced this one
			}
			s.cancel = nil
			cancel()
			if err != nil {
				s.show(nil, "Search: "+err.Error())
				return
			}
			s.show(res.Matches, summary(res))
		})
	})
}

func summary(res search.Result) string {
	files := map[string]bool{}
	for _, m := range res.Matches {
		files[m.Path] = true
	}
	if len(res.Matches) == 0 {
		return fmt.Sprintf("No matches in %d files.", res.Files)
	}
	s := fmt.Sprintf("%s in %s (%d searched; saved text, not unsaved edits).", count(len(res.Matches), "match", "matches"),
		count(len(files), "file", "files"), res.Files)
	if res.Truncated {
		s = fmt.Sprintf("The first %d matches in %s: narrow the pattern or the files.", len(res.Matches), count(len(files), "file", "files"))
	}
	return s
}

// replaceAll hands the files of the listed matches to onReplace.
func (s *searchPane) replaceAll() {
	var files []string
	for _, r := range s.rows {
		if r.head {
			files = append(files, r.path)
		}
	}
	if len(files) == 0 || s.onReplace == nil {
		return
	}
	s.onReplace(s.query(), s.replace.Text, files)
}

// count is "1 file" or "3 files".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// show lists matches (sorted by path, then line) under a heading per file.
func (s *searchPane) show(matches []search.Match, status string) {
	s.rows = s.rows[:0]
	for i := 0; i < len(matches); {
		j := i
		for j < len(matches) && matches[j].Path == matches[i].Path {
			j++
		}
		s.rows = append(s.rows, searchRow{path: matches[i].Path, count: j - i, head: true})
		for _, m := range matches[i:j] {
			s.rows = append(s.rows, searchRow{path: m.Path, match: m})
		}
		i = j
	}
	s.status.SetText(status)
	s.list.Refresh()
	s.list.ScrollToTop()
}

// showSearch shows the Search pane with the keyboard in its pattern,
// seeded with the active editor's selection when it is one line. It must
// be called on the main goroutine.
func (w *Window) showSearch() {
	s := w.panes.search
	w.panes.show(s)
	if e := w.tabs.activeEditor(); e != nil {
		if sel := e.SelectedText(); sel != "" && !strings.Contains(sel, "\n") {
			s.pattern.SetText(sel)
		}
	}
	w.win.Canvas().Focus(s.pattern)
	if s.pattern.Text != "" {
		s.search()
	}
}

// makeSearchPane is the Search pane's entry in paneParts.
func makeSearchPane(w *Window) pane {
	s := newSearchPane(w.project, w.openAt)
	s.main = w.main
	s.onReplace = w.tabs.replaceInFiles
	w.panes.search = s
	return s
}

func (s *searchPane) paneTitle() string                 { return "Search" }
func (s *searchPane) paneContent() fyne.CanvasObject    { return s.content }
func (s *searchPane) paneFocus() fyne.Focusable         { return s.pattern }
func (s *searchPane) agentText(int) (name, text string) { return "", "" }
