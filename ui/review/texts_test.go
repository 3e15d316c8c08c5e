package review

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"trestle/app/changeset"
)

// TestMetaTextCountsFiles: the line under a change set's title says
// "1 file", not "1 files".
func TestMetaTextCountsFiles(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files int
		want  string
	}{
		{"one", 1, " · 1 file, +0 −0"},
		{"two", 2, " · 2 files, +0 −0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := changeset.ChangeSet{ID: "cs-1", State: changeset.StatePending, Created: time.Now()}
			for range tt.files {
				cs.Files = append(cs.Files, changeset.FileChange{Path: "a.go", Action: changeset.ActionEdit})
			}
			if got := metaText(cs, time.Now()); !strings.HasSuffix(got, tt.want) {
				t.Errorf("metaText with %d files = %q, want it to end %q", tt.files, got, tt.want)
			}
		})
	}
}

// TestDescriptionNestsSubLists: a sub-list ("- item\n  - sub item") shows
// each sub item on its own row, with its own bullet indented past the
// item's, instead of joined to the item's row ("• item• sub item").
func TestDescriptionNestsSubLists(t *testing.T) {
	test.NewTempApp(t)
	r := newDescription("Steps:\n\n- item\n  - sub item\n  - sub two\n    1. deep\n- next")
	w := test.NewWindow(r)
	defer w.Close()
	w.Resize(fyne.NewSize(600, 400))
	type drawn struct {
		text string
		pos  fyne.Position // where its first visible glyph starts
	}
	var texts []drawn
	for _, o := range test.LaidOutObjects(r) {
		if tx, ok := o.(*canvas.Text); ok && strings.TrimSpace(tx.Text) != "" {
			lead := tx.Text[:len(tx.Text)-len(strings.TrimLeft(tx.Text, " "))]
			pos := tx.Position().AddXY(fyne.MeasureText(lead, tx.TextSize, tx.TextStyle).Width, 0) // the rich text lays its texts out itself
			texts = append(texts, drawn{strings.TrimSpace(tx.Text), pos})
		}
	}
	find := func(s string) drawn {
		t.Helper()
		for _, d := range texts {
			if d.text == s {
				return d
			}
		}
		t.Fatalf("no %q drawn among %v", s, texts)
		return drawn{}
	}
	// bullet is the text drawn just left of d on its row.
	bullet := func(d drawn) drawn {
		t.Helper()
		var b drawn
		for _, o := range texts {
			if o.pos.Y == d.pos.Y && o.pos.X < d.pos.X && o.pos.X >= b.pos.X {
				b = o
			}
		}
		if b.text == "" {
			t.Fatalf("nothing drawn left of %q on its row: %v", d.text, texts)
		}
		return b
	}
	item, sub, two, deep, next := find("item"), find("sub item"), find("sub two"), find("deep"), find("next")
	rows := []drawn{item, sub, two, deep, next}
	for i := 1; i < len(rows); i++ {
		if rows[i].pos.Y <= rows[i-1].pos.Y {
			t.Fatalf("%q is not on a row below %q: %v", rows[i].text, rows[i-1].text, texts)
		}
	}
	for _, c := range []struct{ outer, inner drawn }{{item, sub}, {item, two}, {two, deep}} {
		ob, ib := bullet(c.outer), bullet(c.inner)
		if ib.text != "•" && ib.text != "1." || ib.pos.X <= ob.pos.X {
			t.Errorf("%q has bullet %q at x %v, want a bullet indented past %q's %q at x %v", c.inner.text, ib.text, ib.pos.X, c.outer.text, ob.text, ob.pos.X)
		}
	}
	if nb, ib := bullet(next), bullet(item); nb.pos.X != ib.pos.X {
		t.Errorf("the outer list's bullets are at x %v and %v, want one column", ib.pos.X, nb.pos.X)
	}
}
