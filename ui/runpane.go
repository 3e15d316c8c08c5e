package ui

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// keptRuns is how many finished runs the Run pane keeps to look back at.
const keptRuns = 5

// fileRef finds "file.go:12" or "file.go:12:3" anywhere in a line of
// output: compiler errors, test failures, panics' stack lines.
var fileRef = regexp.MustCompile(`([^\s:()"'\[\]]+\.go):(\d+)(?::(\d+))?`)

// runPane is the Run tab: a header with the run's state (a spinner and
// the time so far while it runs), a picker of the last runs, and the
// output, whose file.go:12 references open the editor when clicked. Main
// goroutine only, except where a method says otherwise.
type runPane struct {
	out      *outputView
	grid     *linkGrid
	state    *widget.Label
	spinner  *widget.Activity
	history  *widget.Select
	content  fyne.CanvasObject
	runs     []pastRun // finished runs, newest first
	current  pastRun   // the run on screen while it runs
	running  bool
	started  time.Time
	tick     func(fn func()) (stop func()) // calls fn every second on the main goroutine until stopped
	stopTick func()
	// open opens a project file at a line; root is the project's folder;
	// named lists the project's files with a base name (at most two).
	open  func(rel string, line int)
	root  string
	named func(base string) []string
}

// pastRun is one finished run as the picker offers it.
type pastRun struct {
	label string
	rows  []widget.TextGridRow
}

func newRunPane(root string, open func(rel string, line int), named func(base string) []string) *runPane {
	r := &runPane{open: open, root: root, named: named, tick: everySecond(nil)}
	r.grid = newLinkGrid(r.tapped)
	r.out = wrapOutput(&r.grid.TextGrid, r.grid, maxRunLines)
	r.out.style = r.styleRow
	r.state = widget.NewLabel("No run yet: Run › Build, Test or Vet, or Ctrl+Shift+T for the test at the cursor.")
	r.state.Truncation = fyne.TextTruncateEllipsis
	r.spinner = widget.NewActivity()
	r.spinner.Hide()
	r.history = widget.NewSelect(nil, r.pick)
	r.history.PlaceHolder = "Earlier runs"
	r.history.Hide()
	head := container.NewBorder(nil, nil, r.spinner, r.history, r.state)
	r.content = container.NewBorder(head, nil, nil, nil, r.out.box)
	return r
}

func (r *runPane) paneTitle() string              { return "Run" }
func (r *runPane) paneContent() fyne.CanvasObject { return r.content }
func (r *runPane) paneFocus() fyne.Focusable      { return nil }

// agentText is the run's output: agents read it as "run".
func (r *runPane) agentText(tail int) (name, text string) { return "run", r.out.text(tail) }

// begin shows a new run, headed by head: the spinner turns and the time
// counts.
func (r *runPane) begin(head string) {
	r.archive()
	r.out.clear()
	r.out.append(head)
	r.current = pastRun{label: head}
	r.running, r.started = true, time.Now()
	r.spinner.Show()
	r.spinner.Start()
	r.showState()
	if r.stopTick != nil {
		r.stopTick()
	}
	r.stopTick = r.tick(r.showState)
}

// end shows how the run ended, with tail as its last line.
func (r *runPane) end(tail string) {
	r.out.append(tail)
	r.running = false
	if r.stopTick != nil {
		r.stopTick()
		r.stopTick = nil
	}
	r.spinner.Stop()
	r.spinner.Hide()
	r.current.label = strings.TrimPrefix(r.current.label, "$ ") + " — " + strings.Trim(tail, "[]")
	r.state.SetText(r.current.label)
}

func (r *runPane) showState() {
	if !r.running {
		return
	}
	r.state.SetText(fmt.Sprintf("Running %s — %s", strings.TrimPrefix(r.current.label, "$ "),
		time.Since(r.started).Truncate(time.Second)))
}

// archive keeps the finished run on screen in the picker.
func (r *runPane) archive() {
	if r.current.label == "" || r.running {
		return
	}
	r.current.rows = append([]widget.TextGridRow(nil), r.out.grid.Rows...)
	r.runs = append([]pastRun{r.current}, r.runs...)
	if len(r.runs) > keptRuns {
		r.runs = r.runs[:keptRuns]
	}
	labels := make([]string, len(r.runs))
	for i, p := range r.runs {
		labels[i] = p.label
	}
	r.history.Options = labels
	r.history.ClearSelected()
	r.history.Show()
}

// pick shows an earlier run's output (a new run replaces it).
func (r *runPane) pick(label string) {
	for _, p := range r.runs {
		if p.label == label && !r.running {
			r.out.grid.Rows = append([]widget.TextGridRow(nil), p.rows...)
			r.out.fit()
			r.out.grid.Refresh()
			r.out.grid.ScrollToTop()
			r.state.SetText(p.label)
			return
		}
	}
}

// styleRow colours the file references of a row as links.
func (r *runPane) styleRow(row *widget.TextGridRow, _ string) {
	line := rowText(*row) // tabs expanded, as the cells are
	style := &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNamePrimary)}
	for _, m := range fileRef.FindAllStringIndex(line, -1) {
		start := utf8.RuneCountInString(line[:m[0]])
		n := utf8.RuneCountInString(line[m[0]:m[1]])
		for i := start; i < start+n && i < len(row.Cells); i++ {
			row.Cells[i].Style = style
		}
	}
}

// tapped opens the file reference under a tap, if there is one.
func (r *runPane) tapped(row, col int) {
	if row < 0 || row >= len(r.out.grid.Rows) {
		return
	}
	text := rowText(r.out.grid.Rows[row]) // tabs are expanded: a rune a column
	for _, m := range fileRef.FindAllStringSubmatchIndex(text, -1) {
		start, end := utf8.RuneCountInString(text[:m[0]]), utf8.RuneCountInString(text[:m[1]])
		if col < start || col >= end {
			continue
		}
		n, _ := strconv.Atoi(text[m[4]:m[5]])
		if rel, ok := r.resolve(text[m[2]:m[3]]); ok {
			r.open(rel, n)
		}
		return
	}
}

// resolve finds the project file a reference names: project-relative,
// absolute inside the project, a package-relative name that a longer
// reference of this run places, or else the project's only file of that
// name; false when none is a file.
func (r *runPane) resolve(ref string) (string, bool) {
	if filepath.IsAbs(ref) {
		rel, err := filepath.Rel(r.root, ref)
		if err != nil {
			return "", false
		}
		ref = rel
	}
	ref = filepath.ToSlash(ref)
	if r.exists(ref) {
		return ref, true
	}
	for _, row := range r.out.grid.Rows { // a longer reference to the same file
		for _, m := range fileRef.FindAllStringSubmatch(rowText(row), -1) {
			if cand := filepath.ToSlash(m[1]); cand != ref && strings.HasSuffix(cand, "/"+ref) && r.exists(cand) {
				return cand, true
			}
		}
	}
	if !strings.Contains(ref, "/") && r.named != nil {
		if files := r.named(ref); len(files) == 1 {
			return files[0], true
		}
	}
	return "", false
}

// rowText is the text of a grid row.
func rowText(row widget.TextGridRow) string {
	var b strings.Builder
	for _, c := range row.Cells {
		b.WriteRune(c.Rune)
	}
	return b.String()
}

// exists reports whether rel is a file of the project. Only a path that
// stays inside the project is looked at (the editor's open confines it
// again, after resolving symlinks).
func (r *runPane) exists(rel string) bool {
	if rel == "" || path.IsAbs(rel) || path.Clean(rel) == ".." || strings.HasPrefix(path.Clean(rel), "../") {
		return false
	}
	info, err := os.Stat(filepath.Join(r.root, filepath.FromSlash(rel)))
	return err == nil && info.Mode().IsRegular()
}

// linkGrid is a TextGrid that reports taps as a row and column.
type linkGrid struct {
	widget.TextGrid
	onTap func(row, col int)
}

func newLinkGrid(onTap func(row, col int)) *linkGrid {
	g := &linkGrid{onTap: onTap}
	g.Scroll = fyne.ScrollBoth
	g.ExtendBaseWidget(g)
	return g
}

// Tapped implements fyne.Tappable.
func (g *linkGrid) Tapped(ev *fyne.PointEvent) {
	row, col := g.CursorLocationForPosition(ev.Position)
	g.onTap(row, col)
}

// everySecond is what a Run pane's tick is: fn every second on the main
// goroutine through m (nil: a pane made outside a window, in its own test).
func everySecond(m *mainThread) func(fn func()) (stop func()) {
	return func(fn func()) func() { return m.every(time.Second, fn) }
}
