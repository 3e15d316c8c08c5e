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

// numbered is a file of n lines "line 1" ... "line n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// proposeThreeHunks writes calc.txt (30 lines) and proposes a change with
// three hunks, at lines 2, 15 and 28, and a new file notes.txt.
func proposeThreeHunks(t *testing.T, h *testHost, m *changeset.Manager) changeset.ChangeSet {
	t.Helper()
	if err := os.WriteFile(filepath.Join(h.project.Root, "calc.txt"), []byte(numbered(30)), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := m.Propose(diskRead(m.Project()), changeset.Proposal{Title: "Three hunks", Client: "agent",
		Changes: []changeset.Change{
			{Path: "calc.txt", Action: changeset.ActionEdit, Edits: []changeset.Edit{
				{OldText: "line 2\n", NewText: "line two\n"},
				{OldText: "line 15\n", NewText: "line fifteen\n"},
				{OldText: "line 28\n", NewText: "line twenty-eight\n"},
			}},
			{Path: "notes.txt", Action: changeset.ActionCreate, Content: "notes\n"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// hunkButtons returns the Accept and Reject buttons of each hunk shown, in order.
func hunkButtons(r *reviewTab) (accept, reject []*widget.Button) {
	for _, o := range reachable(r.body, isButtonOrLabel) {
		if b, ok := o.(*widget.Button); ok {
			switch b.Text {
			case "Accept":
				accept = append(accept, b)
			case "Reject":
				reject = append(reject, b)
			}
		}
	}
	return accept, reject
}

// TestReviewAppliesExactlyTheAcceptedHunks: the person rejects the middle
// hunk of three and leaves the new file out; Apply writes exactly hunks 1
// and 3, records hunk 2 rejected (for the agent) and the new file pending;
// the file left out applies later.
func TestReviewAppliesExactlyTheAcceptedHunks(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeThreeHunks(t, h, m)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	accept, reject := hunkButtons(r)
	if len(accept) != 3 || len(reject) != 3 {
		t.Fatalf("calc.txt shows %d Accept and %d Reject buttons, want 3 each", len(accept), len(reject))
	}
	test.Tap(reject[1])
	tapFileCheck(t, r, "notes.txt") // left out
	test.Tap(r.acceptAll)           // hunks 1 and 3
	if r.apply.Text != "Apply 2 hunks, reject 1" {
		t.Errorf("Apply says %q", r.apply.Text)
	}
	test.Tap(r.apply)

	want := strings.NewReplacer("line 2\n", "line two\n", "line 28\n", "line twenty-eight\n").Replace(numbered(30))
	if got := readProject(t, h, "calc.txt"); got != want {
		t.Fatalf("calc.txt after the apply:\n%s\nwant\n%s", got, want)
	}
	if _, err := os.Stat(filepath.Join(h.project.Root, "notes.txt")); !os.IsNotExist(err) {
		t.Fatalf("notes.txt, left out, was created: %v", err)
	}
	got, err := m.Get(cs.ID)
	if err != nil {
		t.Fatal(err)
	}
	states := fmt.Sprint(got.File("calc.txt").Hunks)
	if states != fmt.Sprint([]changeset.HunkState{{N: 1, State: changeset.StateApplied}, {N: 2, State: changeset.FileRejected}, {N: 3, State: changeset.StateApplied}}) {
		t.Errorf("calc.txt's hunks as the agent reads them: %s", states)
	}
	if !r.cs.CanApply() || r.apply.Disabled() && r.include["notes.txt"] {
		t.Fatalf("the set is %q: nothing left to apply", r.cs.State)
	}
	if !strings.Contains(r.history.Text, "applied") || !strings.Contains(r.history.Text, "rejected") {
		t.Errorf("the review's history does not show the apply and the rejection:\n%s", r.history.Text)
	}

	// The skipped file can be applied later (the bug: never again).
	r.include["notes.txt"] = true
	test.Tap(r.acceptAll)
	if r.apply.Disabled() {
		t.Fatal("Apply is disabled with notes.txt ticked and pending")
	}
	test.Tap(r.acceptAll)
	test.Tap(r.apply)
	if got := readProject(t, h, "notes.txt"); got != "notes\n" {
		t.Fatalf("notes.txt after the later apply: %q", got)
	}
	if got := readProject(t, h, "calc.txt"); got != want {
		t.Fatalf("the later apply changed calc.txt again:\n%s", got)
	}
}

// TestReviewEditBeforeApply: the person replaces a file's proposed text;
// what applies is theirs, and the set says the person changed it.
func TestReviewEditBeforeApply(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	r.files.Select(1) // lib/lib.go
	if r.cs.Files[r.file].Path != "lib/lib.go" {
		t.Fatalf("file %d is %s", r.file, r.cs.Files[r.file].Path)
	}
	tapButton(t, r.body, "Edit Proposed Text")
	var entry *widget.Entry
	for _, o := range test.LaidOutObjects(r.body) {
		if e, ok := o.(*widget.Entry); ok {
			entry = e
		}
	}
	if entry == nil || !strings.Contains(entry.Text, "const Answer = 42") {
		t.Fatalf("no editable proposed text: %v", entry)
	}
	mine := libGo + "\n// Answer is the answer.\nconst Answer = 41 + 1\n"
	entry.SetText(mine)
	tapButton(t, r.body, "Use This Text")
	if f := r.cs.File("lib/lib.go"); !f.EditedByPerson || f.New != mine {
		t.Fatalf("the set does not hold the person's text: edited %v, new %q", f.EditedByPerson, f.New)
	}
	test.Tap(r.acceptAll)
	test.Tap(r.apply)
	if got := readProject(t, h, "lib/lib.go"); got != mine {
		t.Fatalf("lib/lib.go after the apply:\n%s", got)
	}
	if !strings.Contains(fileText(*r.cs.File("lib/lib.go")), "your text") {
		t.Errorf("the file list does not say the text is the person's: %q", fileText(*r.cs.File("lib/lib.go")))
	}
}

// TestReviewUndoRevert: Revert asks first and reverts; Undo Revert applies
// the set again; both are in the history the review shows.
func TestReviewUndoRevert(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	test.Tap(r.acceptAll)
	test.Tap(r.apply)
	applied := readProject(t, h, "main.go")
	if !r.undo.Disabled() {
		t.Error("Undo Revert is enabled before any revert")
	}
	test.Tap(r.revert)
	tapDialogButton(t, h.win, "Revert")
	if got := readProject(t, h, "main.go"); got != mainGo {
		t.Fatalf("main.go after revert:\n%s", got)
	}
	if r.undo.Disabled() {
		t.Fatal("Undo Revert is disabled after a revert")
	}
	test.Tap(r.undo)
	if got := readProject(t, h, "main.go"); got != applied {
		t.Fatalf("main.go after undoing the revert:\n%s", got)
	}
	if got, _ := m.Get(cs.ID); got.State != changeset.StateApplied {
		t.Errorf("state %q after undoing the revert, want applied", got.State)
	}
	for _, want := range []string{"applied", "reverted", "revert undone"} {
		if !strings.Contains(r.history.Text, want) {
			t.Errorf("the history lacks %q:\n%s", want, r.history.Text)
		}
	}
	if len(h.written) != 3 || h.written[2]["main.go"] != mainGo {
		t.Errorf("the editors heard of %d writes, last %q", len(h.written), h.written)
	}
}

// TestReviewRejectFileWithReason: one file is rejected with a reason the
// agent reads; the rest stays pending.
func TestReviewRejectFileWithReason(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	tapButton(t, r.body, "Reject File…") // main.go, the file shown first
	entry, ok := h.win.Canvas().Focused().(*escEntry)
	if !ok {
		t.Fatalf("the reason has no focus: %T", h.win.Canvas().Focused())
	}
	test.Type(entry, "keep hi")
	tapDialogButton(t, h.win, "Reject File")
	got, err := m.Get(cs.ID)
	if err != nil {
		t.Fatal(err)
	}
	if f := got.File("main.go"); f.Reason != "keep hi" || len(f.Hunks) != 1 || f.Hunks[0].State != changeset.FileRejected {
		t.Fatalf("main.go as the agent reads it: reason %q hunks %v", f.Reason, f.Hunks)
	}
	if f := got.File("lib/lib.go"); !applicable(*f) || !got.CanApply() {
		t.Fatalf("lib/lib.go is no longer pending: %v", f.Hunks)
	}
	if readProject(t, h, "main.go") != mainGo {
		t.Fatal("rejecting main.go wrote it")
	}
}

// tapButton taps the button labelled text among o's objects.
func tapButton(t *testing.T, o fyne.CanvasObject, text string) {
	t.Helper()
	for _, c := range test.LaidOutObjects(o) {
		if b, ok := c.(*widget.Button); ok && b.Text == text {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("no %q button", text)
}

// TestReviewRevertAsksAboutUnsavedEdits: a revert, like an apply, never
// writes over an editor's unsaved text: it asks, and Cancel writes nothing.
func TestReviewRevertAsksAboutUnsavedEdits(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	test.Tap(r.acceptAll)
	test.Tap(r.apply)
	applied := readProject(t, h, "main.go")
	h.buffers["main.go"] = applied + "// mine\n" // typed, not saved
	test.Tap(r.revert)
	tapDialogButton(t, h.win, "Revert")
	if msg := overlayText(h.win); !strings.Contains(msg, "main.go has unsaved edits") {
		t.Fatalf("the revert did not ask about the unsaved edits: %q", msg)
	}
	tapDialogButton(t, h.win, "Cancel")
	if got := readProject(t, h, "main.go"); got != applied {
		t.Fatalf("Cancel wrote main.go:\n%s", got)
	}
	if got, _ := m.Get(cs.ID); got.State != changeset.StateApplied {
		t.Fatalf("state %q after Cancel, want applied", got.State)
	}
	v.busy.Wait() // the note, then the reload
	got, _ := m.Get(cs.ID)
	last := got.History[len(got.History)-1]
	const held = "revert held: main.go has unsaved edits"
	if last.Action != changeset.ActionHeld || !strings.Contains(last.What, held) || last.Who != changeset.ByPerson {
		t.Fatalf("the history the agent reads ends with %+v, want the held revert", last)
	}
	if !strings.Contains(r.history.Text, held) {
		t.Errorf("the review's history does not show the held revert:\n%s", r.history.Text)
	}
}

// TestReviewDoneMeans is issue 15's "done means" through the review: an
// agent's three-file change; the person accepts two hunks of calc.txt and
// rejects the third, edits main.go's proposed text, rejects notes.txt
// with a reason, applies, reverts and undoes the revert; the agent reads
// each outcome.
func TestReviewDoneMeans(t *testing.T) {
	h, m, _ := newChangesHost(t)
	if err := os.WriteFile(filepath.Join(h.project.Root, "calc.txt"), []byte(numbered(30)), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := m.Propose(diskRead(m.Project()), changeset.Proposal{Title: "Three files", Client: "agent",
		Changes: []changeset.Change{
			{Path: "calc.txt", Action: changeset.ActionEdit, Edits: []changeset.Edit{
				{OldText: "line 2\n", NewText: "line two\n"},
				{OldText: "line 15\n", NewText: "line fifteen\n"},
				{OldText: "line 28\n", NewText: "line twenty-eight\n"},
			}},
			{Path: "main.go", Action: changeset.ActionEdit, Edits: []changeset.Edit{{OldText: `"hi"`, NewText: `"hello"`}}},
			{Path: "notes.txt", Action: changeset.ActionCreate, Content: "notes\n"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]

	_, reject := hunkButtons(r) // calc.txt, shown first
	test.Tap(reject[2])
	r.files.Select(1) // main.go: the person's own text
	tapButton(t, r.body, "Edit Proposed Text")
	mine := strings.Replace(mainGo, `"hi"`, `"hello, person"`, 1)
	for _, o := range test.LaidOutObjects(r.body) {
		if e, ok := o.(*widget.Entry); ok {
			e.SetText(mine)
		}
	}
	tapButton(t, r.body, "Use This Text")
	r.files.Select(2) // notes.txt: rejected with a reason
	tapButton(t, r.body, "Reject File…")
	test.Type(h.win.Canvas().Focused().(*escEntry), "no notes")
	tapDialogButton(t, h.win, "Reject File")
	test.Tap(r.acceptAll)
	test.Tap(r.apply)

	wantCalc := strings.NewReplacer("line 2\n", "line two\n", "line 15\n", "line fifteen\n").Replace(numbered(30))
	check := func(when, calc, main string) {
		t.Helper()
		if got := readProject(t, h, "calc.txt"); got != calc {
			t.Fatalf("%s: calc.txt\n%s", when, got)
		}
		if got := readProject(t, h, "main.go"); got != main {
			t.Fatalf("%s: main.go\n%s", when, got)
		}
		if _, err := os.Stat(filepath.Join(h.project.Root, "notes.txt")); !os.IsNotExist(err) {
			t.Fatalf("%s: the rejected notes.txt exists (%v)", when, err)
		}
	}
	check("applied", wantCalc, mine)
	got, err := m.Get(cs.ID)
	if err != nil {
		t.Fatal(err)
	}
	calc, main, notes := got.File("calc.txt"), got.File("main.go"), got.File("notes.txt")
	if fmt.Sprint(calc.Hunks) != fmt.Sprint([]changeset.HunkState{{N: 1, State: changeset.StateApplied}, {N: 2, State: changeset.StateApplied}, {N: 3, State: changeset.FileRejected}}) {
		t.Errorf("the agent reads calc.txt's hunks %v", calc.Hunks)
	}
	if !main.EditedByPerson {
		t.Error("the agent is not told the person changed main.go")
	}
	if notes.Reason != "no notes" || notes.Hunks[0].State != changeset.FileRejected {
		t.Errorf("the agent reads notes.txt: reason %q, hunks %v", notes.Reason, notes.Hunks)
	}

	test.Tap(r.revert)
	tapDialogButton(t, h.win, "Revert")
	check("reverted", numbered(30), mainGo)
	test.Tap(r.undo)
	check("revert undone", wantCalc, mine)
	got, _ = m.Get(cs.ID)
	var actions []string
	for _, e := range got.History {
		actions = append(actions, e.Action)
	}
	for _, want := range []string{changeset.ActionEditedByPerson, changeset.ActionRejected, changeset.ActionReverted, changeset.ActionRevertUndone} {
		if !strings.Contains(strings.Join(actions, ","), want) {
			t.Errorf("the history the agent reads lacks %q: %v", want, actions)
		}
	}
}

// TestReviewShowsAConflictingHunk: the file changed on disk after the
// proposal; Apply writes nothing and says which file, and the hunks show
// as conflicts, not forced.
func TestReviewShowsAConflictingHunk(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeThreeHunks(t, h, m)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	changed := strings.Replace(numbered(30), "line 1\n", "line one\n", 1)
	if err := os.WriteFile(filepath.Join(h.project.Root, "calc.txt"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	test.Tap(r.acceptAll)
	test.Tap(r.apply)
	if got := readProject(t, h, "calc.txt"); got != changed {
		t.Fatalf("a conflicting apply wrote calc.txt:\n%s", got)
	}
	if msg := overlayText(h.win); !strings.Contains(msg, "calc.txt") {
		t.Errorf("the refusal does not name calc.txt: %q", msg)
	}
	bars := hunkBars(r.body)
	if len(bars) != 3 || !strings.Contains(bars[0], "conflict") {
		t.Errorf("the hunk bars say %q; want each a conflict", bars)
	}
}

// TestReviewRevertLeavesOtherFilesAlone: unsaved edits in a file the
// revert does not write (its change was rejected) neither stop it nor are
// saved; unsaved edits in a file it writes stop it with a reason and no
// "Save and Revert", which saved and then always refused.
func TestReviewRevertLeavesOtherFilesAlone(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeTwo(t, m)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	tapButton(t, r.body, "Reject File…") // main.go
	tapDialogButton(t, h.win, "Reject File")
	test.Tap(r.acceptAll)
	test.Tap(r.apply) // lib/lib.go
	v.busy.Wait()
	applied := readProject(t, h, "lib/lib.go")
	h.buffers["main.go"] = mainGo + "// mine\n" // typed in a file the revert leaves alone
	test.Tap(r.revert)
	tapDialogButton(t, h.win, "Revert")
	v.busy.Wait()
	if got := readProject(t, h, "lib/lib.go"); got != libGo {
		t.Fatalf("lib/lib.go after the revert (%s):\n%s", overlayText(h.win), got)
	}
	if readProject(t, h, "main.go") != mainGo || h.buffers["main.go"] != mainGo+"// mine\n" {
		t.Fatal("the revert touched main.go, which it does not revert")
	}
	test.Tap(r.undo)
	v.busy.Wait()
	if readProject(t, h, "lib/lib.go") != applied {
		t.Fatal("Undo Revert did not apply lib/lib.go again")
	}
	h.buffers["lib/lib.go"] = applied + "// mine\n"
	test.Tap(r.revert)
	tapDialogButton(t, h.win, "Revert")
	msg := overlayText(h.win)
	if !strings.Contains(msg, "lib/lib.go has unsaved edits") || strings.Contains(msg, "Save and") {
		t.Fatalf("the revert over unsaved edits says %q", msg)
	}
	for _, o := range test.LaidOutObjects(h.win.Canvas().Overlays().Top()) {
		if b, ok := o.(*widget.Button); ok && strings.HasPrefix(b.Text, "Save") {
			t.Fatalf("the dialog offers %q", b.Text)
		}
	}
	tapDialogButton(t, h.win, "Cancel")
	if readProject(t, h, "lib/lib.go") != applied {
		t.Fatal("the refused revert wrote lib/lib.go")
	}
}

// TestUndecidedHunksSayUndecidedAndStayPending is issue 20's "undecided
// hunks count as accepted": a hunk the person had not decided said
// "accepted" in its bar, with Accept lit, and Apply wrote it. Now it says
// undecided; Apply counts and writes only the hunks accepted (and records
// those rejected); an undecided one stays pending for later. Accept All
// accepts the rest.
func TestUndecidedHunksSayUndecidedAndStayPending(t *testing.T) {
	h, m, _ := newChangesHost(t)
	cs := proposeThreeHunks(t, h, m)
	v := startChanges(t, h, m)
	v.Show(cs.ID)
	r := v.tabs[cs.ID]
	tapFileCheck(t, r, "notes.txt") // left out
	bars := hunkBars(r.body)
	if len(bars) != 3 {
		t.Fatalf("calc.txt shows %d hunk bars, want 3: %q", len(bars), bars)
	}
	for _, bar := range bars {
		if !strings.HasSuffix(bar, "· undecided") {
			t.Fatalf("an undecided hunk's bar says %q", bar)
		}
	}
	if !r.apply.Disabled() {
		t.Fatalf("Apply (%q) is enabled with nothing decided", r.apply.Text)
	}
	accept, reject := hunkButtons(r)
	test.Tap(accept[0])
	test.Tap(reject[1])
	bars = hunkBars(r.body)
	if !strings.HasSuffix(bars[0], "· accepted: will be applied") || !strings.HasSuffix(bars[1], "· rejected: will not be applied") ||
		!strings.HasSuffix(bars[2], "· undecided") {
		t.Fatalf("hunk bars after accepting 1 and rejecting 2: %q", bars)
	}
	if r.apply.Text != "Apply 1 hunk, reject 1" || r.apply.Disabled() {
		t.Fatalf("Apply says %q (disabled %v)", r.apply.Text, r.apply.Disabled())
	}
	test.Tap(r.apply)
	want := strings.Replace(numbered(30), "line 2\n", "line two\n", 1)
	if got := readProject(t, h, "calc.txt"); got != want {
		t.Fatalf("calc.txt after the apply (only hunk 1 accepted):\n%s", got)
	}
	got, err := m.Get(cs.ID)
	if err != nil {
		t.Fatal(err)
	}
	if states := fmt.Sprint(got.File("calc.txt").Hunks); states != fmt.Sprint([]changeset.HunkState{{N: 1, State: changeset.StateApplied},
		{N: 2, State: changeset.FileRejected}, {N: 3, State: changeset.StatePending}}) {
		t.Fatalf("calc.txt's hunks after the apply: %s; want hunk 3 pending", states)
	}

	test.Tap(r.acceptAll)
	if r.apply.Text != "Apply 1 hunk" || r.apply.Disabled() {
		t.Fatalf("after Accept All, Apply says %q (disabled %v)", r.apply.Text, r.apply.Disabled())
	}
	test.Tap(r.apply)
	if got := readProject(t, h, "calc.txt"); got != strings.Replace(want, "line 28\n", "line twenty-eight\n", 1) {
		t.Fatalf("calc.txt after Accept All and Apply:\n%s", got)
	}
}
