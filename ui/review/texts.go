package review

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// setRowText is a list row's detail line: state, id, client, age and diff stats.
func setRowText(cs changeset.ChangeSet, now time.Time) string {
	added, removed := cs.Stats()
	return fmt.Sprintf("%s · %s · %s · %s · +%d −%d", stateText(cs.State), cs.ID, clientName(cs),
		changeset.Age(now.Sub(cs.Created)), added, removed)
}

func clientName(cs changeset.ChangeSet) string {
	if cs.Client == "" {
		return "unknown client"
	}
	name := changeset.MarkControls(cs.Client)
	if r := []rune(name); len(r) > maxClientName { // an agent's name: it never makes the header taller
		name = string(r[:maxClientName-1]) + "…"
	}
	return name
}

// maxClientName is how many characters of a client's name a review shows.
const maxClientName = 48

// stateText is a state as a person reads it: "partly applied".
func stateText(s string) string { return strings.ReplaceAll(s, "_", " ") }

// metaText is the line under a change set's title.
func metaText(cs changeset.ChangeSet, now time.Time) string {
	added, removed := cs.Stats()
	s := fmt.Sprintf("%s · %s · proposed by %s %s · %d file%s, +%d −%d", cs.ID, stateText(cs.State), clientName(cs),
		changeset.Age(now.Sub(cs.Created)), len(cs.Files), plural(len(cs.Files)), added, removed)
	if cs.Reason != "" {
		s += " · reason: " + changeset.MarkControls(cs.Reason)
	}
	return s
}

// fileText is a file's row in the review's file list: action, path,
// stats and, when not pending, its state and why.
func fileText(f changeset.FileChange) string {
	s := fmt.Sprintf("%s %s  +%d −%d", f.Action, changeset.MarkControls(f.Path), f.Added, f.Removed)
	if f.ChangesWhatRuns() {
		s += "  ⚠ changes what runs"
	}
	if f.EditedByPerson {
		s += "  ✎ your text"
	}
	if f.State != changeset.StatePending && f.State != "" {
		s += "  [" + stateText(f.State) + "]"
	}
	if f.Detail != "" {
		s += " " + changeset.MarkControls(f.Detail)
	}
	return s
}

// reviewWarnings are the labels, in the theme's danger colour, that a
// review shows above the diffs. Main goroutine only.
func reviewWarnings(cs changeset.ChangeSet) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, text := range warningTexts(cs) {
		l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		l.Importance = widget.DangerImportance
		l.Wrapping = fyne.TextWrapWord
		out = append(out, l)
	}
	return out
}

// warningTexts are the warnings of reviewWarnings, as plain text: that the
// set changes what runs, that some text holds invisible or control
// characters.
func warningTexts(cs changeset.ChangeSet) []string {
	var out []string
	if runs := cs.RunsWhat(); len(runs) > 0 {
		out = append(out, "⚠ Changes what runs: "+strings.Join(runs, ", ")+" — its tasks and environment become commands at the next build, test, run or evaluation.")
	}
	hidden := changeset.HasHiddenText(cs.Title)
	for _, f := range cs.Files {
		hidden = hidden || changeset.HasHiddenText(f.Path) || changeset.HasHiddenText(f.New) || changeset.HasHiddenText(f.Base)
	}
	if hidden {
		out = append(out, "⚠ Control or invisible characters: shown as ␛, ␍ or ⟦U+202E⟧ in the title and diffs; in a terminal they could make text show as something else.")
	}
	return out
}

// commitMessage is a change set as a commit message: the title, a blank
// line and the description, with the proposing client named.
func commitMessage(cs changeset.ChangeSet) string {
	msg := strings.TrimSpace(cs.Title)
	if d := strings.TrimSpace(cs.Description); d != "" {
		msg += "\n\n" + strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
				return -1 // no terminal escapes into a commit message
			}
			return r
		}, d)
	}
	if cs.Client != "" {
		msg += "\n\nProposed by " + cs.Client + " through Trestle (" + cs.ID + ")."
	}
	return msg + "\n"
}

// underscore stands for an underscore inside a word while Fyne's markdown
// parser reads a description (a private-use rune no text holds).
const underscore = '\uE05F'

// newDescription renders a change set's markdown description. Fyne's
// renderer puts a space between the text pieces its parser splits a word
// into at each underscore ("calc_test.go" showed as "calc_ test.go"); an
// underscore inside a word can never start emphasis in markdown, so it
// is hidden from the parser and put back after. Main goroutine only.
func newDescription(md string) *widget.RichText {
	r := widget.NewRichTextFromMarkdown(hideWordUnderscores(markLines(md)))
	restore := func(s string) string { return strings.ReplaceAll(s, string(underscore), "_") }
	for _, seg := range r.Segments {
		restoreSegment(seg, restore)
		if l, ok := seg.(*widget.ListSegment); ok {
			for i, item := range l.Items {
				l.Items[i] = nestSubLists(item, 1)
			}
		}
	}
	r.Wrapping = fyne.TextWrapWord
	r.Refresh()
	return r
}

// subListIndent is how far each level of a sub-list sits past the level
// above it, before its bullet.
const subListIndent = "    "

// nestSubLists gives each list inside item, a list item at depth (1 for
// a top-level list's), rows of its own: one per sub item, with its bullet
// indented by depth. Fyne's parser puts a sub-list in the item's
// paragraph and its renderer has no indentation, so "- item\n  - sub item"
// drew as the one row "• item• sub item".
func nestSubLists(item widget.RichTextSegment, depth int) widget.RichTextSegment {
	p, ok := item.(*widget.ParagraphSegment)
	if !ok || !slices.ContainsFunc(p.Texts, isList) {
		return item
	}
	var rows, run []widget.RichTextSegment
	endRow := func() {
		if len(run) > 0 { // a paragraph whose last segment is a paragraph ends its row
			rows = append(rows, &widget.ParagraphSegment{Texts: []widget.RichTextSegment{&widget.ParagraphSegment{Texts: run}}})
			run = nil
		}
	}
	for _, seg := range p.Texts {
		l, ok := seg.(*widget.ListSegment)
		if !ok {
			run = append(run, seg)
			continue
		}
		endRow()
		for i, sub := range l.Items {
			mark := "•"
			if l.Ordered {
				mark = strconv.Itoa(l.StartNumber()+i) + "."
			}
			bullet := &widget.TextSegment{Text: strings.Repeat(subListIndent, depth) + mark + "  ", Style: widget.RichTextStyleStrong}
			rows = append(rows, &widget.ParagraphSegment{Texts: []widget.RichTextSegment{bullet, nestSubLists(sub, depth+1)}})
		}
	}
	endRow()
	p.Texts = rows
	return p
}

func isList(seg widget.RichTextSegment) bool {
	_, ok := seg.(*widget.ListSegment)
	return ok
}

// markLines is MarkControls line by line: a description's line breaks
// (LF or CRLF) stay line breaks for the markdown parser, where marking
// them made one paragraph of "␊" signs, which the window's font draws as
// "�" (and a list's "- " lines were no list).
func markLines(md string) string {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = changeset.MarkControls(l)
	}
	return strings.Join(lines, "\n")
}

// hideWordUnderscores replaces each underscore between two letters or
// digits with the underscore placeholder.
func hideWordUnderscores(s string) string {
	runes := []rune(s)
	word := func(i int) bool {
		return i >= 0 && i < len(runes) && (unicode.IsLetter(runes[i]) || unicode.IsDigit(runes[i]) || runes[i] == underscore)
	}
	for i, r := range runes {
		if r == '_' && word(i-1) && (word(i+1) || i+1 < len(runes) && runes[i+1] == '_') {
			runes[i] = underscore
		}
	}
	return string(runes)
}

// restoreSegment puts the underscores back into seg and what it holds.
func restoreSegment(seg widget.RichTextSegment, restore func(string) string) {
	switch s := seg.(type) {
	case *widget.TextSegment:
		s.Text = restore(s.Text)
	case *widget.HyperlinkSegment:
		s.Text = restore(s.Text)
		if s.URL != nil {
			s.URL.Host = restore(s.URL.Host)
			s.URL.Path = restore(s.URL.Path)
			s.URL.RawQuery = restore(s.URL.RawQuery)
			s.URL.Fragment = restore(s.URL.Fragment)
		}
	case *widget.ListSegment:
		for _, item := range s.Items {
			restoreSegment(item, restore)
		}
	case *widget.ParagraphSegment:
		for _, t := range s.Texts {
			restoreSegment(t, restore)
		}
	}
}
