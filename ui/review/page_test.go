package review

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// reachable returns the objects under o that a person can reach and
// keep selects: those laid out now, and under each diffPage what it
// shows as it is scrolled from top to bottom (it is scrolled back to the
// top after). Each object once, in the order met.
func reachable(o fyne.CanvasObject, keep func(fyne.CanvasObject) bool) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	seen := map[fyne.CanvasObject]bool{}
	add := func(c fyne.CanvasObject) {
		if keep(c) && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, c := range test.LaidOutObjects(o) {
		add(c)
		p, ok := c.(*diffPage)
		if !ok {
			continue
		}
		view := p.scroll.Size().Height
		for y := float32(0); ; y += view * (1 + pageMargin) { // what is in view and below it
			p.scrollTo(y)
			for _, d := range test.LaidOutObjects(p) {
				add(d)
			}
			if y+view >= p.total || view <= 0 {
				break
			}
		}
		p.scrollTo(0)
	}
	return out
}

// isButtonOrLabel selects buttons and labels.
func isButtonOrLabel(o fyne.CanvasObject) bool {
	switch o.(type) {
	case *widget.Button, *widget.Label:
		return true
	}
	return false
}

// rowsHeld is how many wrapped rows the grids of p hold now.
func rowsHeld(p *diffPage) int {
	n := 0
	for _, o := range p.inView() {
		if g, ok := o.(*diffGrid); ok {
			n += len(g.grid.Rows)
		}
	}
	return n
}

// pageIn returns the first diffPage under o, or nil.
func pageIn(o fyne.CanvasObject) *diffPage {
	for _, c := range test.LaidOutObjects(o) {
		if p, ok := c.(*diffPage); ok {
			return p
		}
	}
	return nil
}

// hunkBars returns the texts of the hunk bars a person can scroll to.
func hunkBars(o fyne.CanvasObject) []string {
	var bars []string
	for _, c := range reachable(o, isButtonOrLabel) {
		if l, ok := c.(*widget.Label); ok && strings.HasPrefix(l.Text, "Hunk ") {
			bars = append(bars, l.Text)
		}
	}
	return bars
}

// proposeLarge writes big.txt of lines lines and proposes a change to
// every tenth line of it (lines/10 hunks of 8 diff lines), and gen.go, a
// new file of genLines long lines (one hunk).
func proposeLarge(t testing.TB, h *testHost, m *changeset.Manager, lines, genLines int) changeset.ChangeSet {
	t.Helper()
	if err := os.WriteFile(filepath.Join(h.project.Root, "big.txt"), []byte(numbered(lines)), 0o644); err != nil {
		t.Fatal(err)
	}
	var edits []changeset.Edit
	for i := 5; i <= lines; i += 10 {
		edits = append(edits, changeset.Edit{OldText: fmt.Sprintf("line %d\n", i), NewText: fmt.Sprintf("line %d, changed\n", i)})
	}
	var big strings.Builder
	for i := range genLines {
		fmt.Fprintf(&big, "func f%d() int { return %d } // a line long enough to wrap in a narrow review, so rows and lines differ\n", i, i)
	}
	cs, err := m.Propose(diskRead(m.Project()), changeset.Proposal{Title: "Large", Client: "agent",
		Changes: []changeset.Change{
			{Path: "big.txt", Action: changeset.ActionEdit, Edits: edits},
			{Path: "gen.go", Action: changeset.ActionCreate, Content: "package demo\n\n" + big.String()},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestReviewShowsEveryHunkOfALargeProposal is issue 20's "hunks the
// review never shows are applied": the review stopped drawing at 5,000
// diff rows and said "… 2 more hunks not shown" beside an enabled "Apply
// 2 hunks", which applied them unseen. Now every hunk of a file is on its
// page and can be scrolled to, however large the file; the page holds
// objects only for what is in view; and what Apply applies is exactly
// the hunks the person can see accepted.
func TestReviewShowsEveryHunkOfALargeProposal(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeLarge(t, h, m, 8000, 5000)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	hunks := len(r.hunksOfFile(*r.cs.File("big.txt")))
	if hunks != 800 {
		t.Fatalf("big.txt has %d hunks, want 800", hunks)
	}
	for _, o := range test.LaidOutObjects(r.body) { // before: "… 175 more hunks not shown"
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "not shown") {
			t.Fatalf("the review leaves hunks out: %q", l.Text)
		}
	}
	p := pageIn(r.body)
	if p == nil {
		t.Fatal("big.txt's hunks are not on a page")
	}
	viewRows := int(p.scroll.Size().Height / diffCell().Height)
	bound := int(float32(viewRows)*(1+2*pageMargin)) + 4*pageChunk // a margin above and below, and the chunks of two hunks
	if n := rowsHeld(p); n == 0 || n > bound {
		t.Errorf("the page holds %d rows for a view of %d of an 8,000-line file (bound %d)", n, viewRows, bound)
	}
	bars := hunkBars(r.body)
	if len(bars) != hunks {
		t.Fatalf("scrolling through big.txt shows %d hunk bars, want %d", len(bars), hunks)
	}
	for i, b := range bars {
		if !strings.HasPrefix(b, fmt.Sprintf("Hunk %d ·", i+1)) || !strings.HasSuffix(b, "· undecided") {
			t.Fatalf("bar %d says %q", i+1, b)
		}
	}

	// The new file is one hunk of 5,002 lines (before: not shown at all):
	// its last line can be scrolled to, and the page still holds about a
	// view of it.
	r.files.Select(1)
	p = pageIn(r.body)
	p.scrollTo(p.total)
	var last string
	for _, o := range test.LaidOutObjects(p) {
		if g, ok := o.(*diffGrid); ok {
			last = gridText(g)
		}
	}
	if !strings.Contains(last, "func f4999() int") {
		t.Errorf("the end of gen.go, scrolled to, shows:\n%s", last[max(0, len(last)-300):])
	}
	if n := rowsHeld(p); n == 0 || n > bound {
		t.Errorf("the page holds %d rows for a view of %d of a 5,002-line hunk (bound %d)", n, viewRows, bound)
	}

	// A decision far down big.txt keeps the person's place.
	test.Tap(r.acceptAll)
	r.files.Select(0)
	p = pageIn(r.body)
	p.scrollTo(p.total / 2)
	at := p.offset()
	tapInView(t, r, "Reject")
	if p = pageIn(r.body); p.offset() != at {
		t.Errorf("after a decision the page is at %v; it was at %v", p.offset(), at)
	}
	if r.apply.Text != "Apply 800 hunks, reject 1" {
		t.Errorf("after rejecting one, Apply says %q", r.apply.Text)
	}
	tapInView(t, r, "Accept")

	if r.apply.Text != "Apply 801 hunks" || r.apply.Disabled() {
		t.Fatalf("Apply says %q (disabled %v)", r.apply.Text, r.apply.Disabled())
	}
	test.Tap(r.apply)
	got, err := m.Get(cs.ID)
	if err != nil || got.State != changeset.StateApplied {
		t.Fatalf("after Apply the set is %q (%v)", got.State, err)
	}
	if data, _ := os.ReadFile(filepath.Join(h.project.Root, "big.txt")); !strings.Contains(string(data), "line 7995, changed\n") {
		t.Error("the last hunk of big.txt was not applied")
	}
}

// TestReviewPageFollowsItsWidth: a narrower review wraps the long lines
// of a large file to more rows, and the whole of it can still be
// scrolled to.
func TestReviewPageFollowsItsWidth(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeLarge(t, h, m, 300, 300)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	r.files.Select(1)
	p := pageIn(r.body)
	wide := p.total
	h.win.Resize(fyne.NewSize(700, 720))
	if p.total <= wide {
		t.Fatalf("narrower, the page is %v tall; it was %v", p.total, wide)
	}
	p.scrollTo(p.total)
	var shown string // every grid in view: the last may hold only the end of a wrapped line
	for _, o := range test.LaidOutObjects(p) {
		if g, ok := o.(*diffGrid); ok {
			shown += gridText(g)
		}
	}
	if !strings.Contains(shown, "func f299() int") {
		t.Errorf("the end of gen.go, narrower, shows:\n%s", shown[max(0, len(shown)-300):])
	}
}

// tapInView taps the first button labelled text of a hunk bar the page
// of r shows now, past the top of the view.
func tapInView(t testing.TB, r *reviewTab, text string) {
	t.Helper()
	p := pageIn(r.body)
	for _, o := range test.LaidOutObjects(p) {
		if b, ok := o.(*widget.Button); ok && b.Text == text && !b.Disabled() {
			if b.Position().Y >= 0 && fyne.CurrentApp().Driver().AbsolutePositionForObject(b).Y >= fyne.CurrentApp().Driver().AbsolutePositionForObject(p).Y {
				test.Tap(b)
				return
			}
		}
	}
	t.Fatalf("no %q button in view", text)
}

// BenchmarkReviewLargeProposal is the main goroutine's work to open a
// 5,000-line file for review and scroll through it a view at a time.
func BenchmarkReviewLargeProposal(b *testing.B) {
	h, m, _ := newChangesHost(b)
	cs := proposeLarge(b, h, m, 5000, 5000)
	v := startChanges(b, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	b.Run("open", func(b *testing.B) { // gen.go: 5,002 new lines
		for b.Loop() {
			r.rows = map[rowsKey]*pageBlock{}
			r.showFile(1)
		}
	})
	b.Run("decide", func(b *testing.B) { // big.txt: a hunk of 500 rejected, then accepted
		r.showFile(0)
		pageIn(r.body).scrollTo(pageIn(r.body).total / 2)
		reject := true
		for b.Loop() {
			tapInView(b, r, map[bool]string{true: "Reject", false: "Accept"}[reject])
			reject = !reject
		}
	})
	b.Run("scroll a view", func(b *testing.B) {
		r.showFile(1)
		p := pageIn(r.body)
		y := float32(0)
		for b.Loop() {
			y += p.scroll.Size().Height
			if y >= p.total {
				y = 0
			}
			p.scrollTo(y)
		}
	})
}

// TestReviewPreparesRowsOffTheMainGoroutine: the rows of a file opened
// for review are computed by the view's async work, not on the main
// goroutine; until they are in, the review says so and Apply, which
// would apply hunks nobody could see yet, is disabled.
func TestReviewPreparesRowsOffTheMainGoroutine(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeLarge(t, h, m, 2000, 2000)
	v := startChanges(t, h, m)
	var queued []func()
	v.async = func(fn func()) { queued = append(queued, fn) } // run below, one at a time, as the goroutines would
	next := func() {
		t.Helper()
		if len(queued) == 0 {
			t.Fatal("no work queued")
		}
		fn := queued[0]
		queued = queued[1:]
		fn()
	}
	v.Show(cs.ID)
	next() // the set read whole and diffed; the tab is built
	r := v.tabs[cs.ID]
	if pageIn(r.body) != nil || !strings.Contains(objectsText(r.body), "Preparing the diff") {
		t.Fatalf("before its rows are in, big.txt shows:\n%s", objectsText(r.body))
	}
	if !r.apply.Disabled() {
		t.Fatal("Apply is enabled while the diff is not shown yet")
	}
	next() // the rows
	if pageIn(r.body) == nil || len(hunkBars(r.body)) != 200 {
		t.Fatalf("once its rows are in, big.txt shows:\n%s", objectsText(r.body))
	}
	test.Tap(r.acceptAll)
	if r.apply.Disabled() || r.apply.Text != "Apply 201 hunks" {
		t.Fatalf("Apply says %q (disabled %v) once the diff is shown", r.apply.Text, r.apply.Disabled())
	}
}

// objectsText is the text of the labels laid out under o.
func objectsText(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, c := range test.LaidOutObjects(o) {
		if l, ok := c.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}
