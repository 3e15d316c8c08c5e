package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"trestle/app/workbench"
)

func TestOutputViewKeepsTheLastLines(t *testing.T) {
	test.NewTempApp(t)
	o := newOutputView(3)
	o.append("one", "two")
	if got := o.text(0); got != "one\ntwo\n" {
		t.Fatalf("text = %q", got)
	}
	o.append("three", "four", "five")
	if got := o.text(0); got != "[2 earlier lines not shown]\nthree\nfour\nfive\n" {
		t.Fatalf("bounded text = %q", got)
	}
	if got := o.text(1); got != "[4 earlier lines not shown]\nfive\n" {
		t.Fatalf("tail = %q", got)
	}
	o.clear()
	if got := o.text(0); got != "" {
		t.Fatalf("cleared = %q", got)
	}
}

func TestAgentsPaneIsBounded(t *testing.T) {
	test.NewTempApp(t)
	a := newAgentsPane()
	for i := range maxAgentCalls + 5 {
		a.add(workbench.ToolCall{ID: uint64(i + 1), Time: time.Now(), Client: "c", Tool: fmt.Sprintf("t%d", i), State: "running"})
		a.add(workbench.ToolCall{ID: uint64(i + 1), Time: time.Now(), Client: "c", Tool: fmt.Sprintf("t%d", i), State: "done"})
	}
	if last := a.calls[len(a.calls)-1]; last.State != "done" {
		t.Fatalf("the end of a call did not update its row: %+v", last)
	}
	if len(a.calls) != maxAgentCalls || a.calls[0].Tool != "t5" {
		t.Fatalf("kept %d, first %s", len(a.calls), a.calls[0].Tool)
	}
	row := callText(workbench.ToolCall{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Client: "claude-code",
		Tool: "trestle_read", State: "refused", Duration: 1500 * time.Microsecond, Summary: `{"path":"../x"}`})
	for _, want := range []string{"03:04:05", "claude-code", "trestle_read", "refused", "1.5ms", `{"path":"../x"}`} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
}

func TestProblemsPaneOpensTheEditorThere(t *testing.T) {
	test.NewTempApp(t)
	var opened string
	p := newProblemsPane(func(rel string, line int) { opened = fmt.Sprintf("%s:%d", rel, line) })
	p.set([]Problem{{Path: "a.go", Line: 3, Col: 2, Message: "undefined: x"}, {Path: "b/c.go", Line: 9, Message: "vet"}})
	p.list.Select(1)
	if opened != "b/c.go:9" {
		t.Fatalf("opened %q", opened)
	}
	if got := p.items[0].String(); got != "a.go:3:2: undefined: x" {
		t.Fatalf("row %q", got)
	}
}

func TestEvalInputSubmitsAndWalksHistory(t *testing.T) {
	test.NewTempApp(t)
	e := newEvalPane()
	var got []string
	e.onSubmit = func(code string) { got = append(got, code) }
	w := test.NewWindow(e.content)
	defer w.Close()
	test.Type(e.input, "1+1")
	e.input.TypedKey(&fyneKeyReturn)
	test.Type(e.input, "x := 2")
	e.input.TypedKey(&fyneKeyReturn)
	if strings.Join(got, "|") != "1+1|x := 2" || e.input.Text != "" {
		t.Fatalf("submitted %q, input %q", got, e.input.Text)
	}
	e.input.TypedKey(&fyneKeyUp)
	if e.input.Text != "x := 2" {
		t.Fatalf("Up gave %q", e.input.Text)
	}
	e.input.TypedKey(&fyneKeyUp)
	e.input.TypedKey(&fyneKeyDown)
	if e.input.Text != "x := 2" {
		t.Fatalf("Up Up Down gave %q", e.input.Text)
	}
}

var (
	fyneKeyUp     = fyne.KeyEvent{Name: fyne.KeyUp}
	fyneKeyDown   = fyne.KeyEvent{Name: fyne.KeyDown}
	fyneKeyReturn = fyne.KeyEvent{Name: fyne.KeyReturn}
)

// TestAgentCallOpensWhole: a click on a call in the Agents pane shows its
// whole arguments and result.
func TestAgentCallOpensWhole(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(1000, 700))
	code := "x := 1\nif x < 2 {\n\tfmt.Println(\"small\")\n}\n" + strings.Repeat("// more\n", 20)
	w.panes.agents.add(workbench.ToolCall{ID: 7, Client: "claude-code", Tool: "trestle_eval", State: "done",
		Summary: "{\"code\":\"x := 1…", Arguments: "{\n  \"code\": " + strconv.Quote(code) + "\n}", Result: "small\n= <nil>"})
	w.panes.agents.list.Select(0)
	var texts []string
	for _, o := range w.win.Canvas().Overlays().List() {
		texts = append(texts, labelTexts(o)...)
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"trestle_eval — claude-code", strconv.Quote(code), "small\n= <nil>"} {
		if !strings.Contains(all, want) {
			t.Errorf("the call's dialog lacks %q; it shows:\n%s", want, all)
		}
	}
}

func labelTexts(o fyne.CanvasObject) []string {
	var out []string
	switch v := o.(type) {
	case *widget.Label:
		out = append(out, v.Text)
	case fyne.Widget:
		r := test.WidgetRenderer(v)
		for _, c := range r.Objects() {
			out = append(out, labelTexts(c)...)
		}
	case *fyne.Container:
		for _, c := range v.Objects {
			out = append(out, labelTexts(c)...)
		}
	}
	return out
}

// TestStatusMessagesOpenWhole: a message too long for the status bar is
// cut there, and a click on it shows it whole, with the earlier ones.
func TestStatusMessagesOpenWhole(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(800, 600))
	long := "the file tree does not follow changes on disk: " + strings.Repeat("too many open files, ", 20) + "end"
	w.status.notify("first message")
	w.status.notify(long)
	test.Tap(w.status.message)
	var all string
	for _, o := range w.win.Canvas().Overlays().List() {
		all += strings.Join(labelTexts(o), "\n")
	}
	if !strings.Contains(all, long) || !strings.Contains(all, "first message") {
		t.Fatalf("the messages dialog shows:\n%s\nwant both messages whole", all)
	}
	if strings.Index(all, long) > strings.Index(all, "first message") {
		t.Error("the newest message is not first")
	}
}

// TestSelectionPickerExplainsItself: resting the pointer on the selection
// picker shows what a selection is; leaving hides it.
func TestSelectionPickerExplainsItself(t *testing.T) {
	w := newTestWindow(t)
	w.Window().Resize(fyne.NewSize(1000, 700))
	s := w.status.selection
	s.later = func(_ time.Duration, fn func()) *time.Timer { fn(); return nil }
	s.MouseIn(&desktop.MouseEvent{})
	if tip := strings.Join(labelTexts(w.status.tips), "\n"); !strings.Contains(tip, ".trestle.json") {
		t.Fatalf("no tip over the selection picker (%q)", tip)
	}
	if w.win.Canvas().Overlays().Top() != nil {
		t.Error("the tip is a pop-up: it would take the keys typed while it shows")
	}
	s.MouseOut()
	if tip := labelTexts(w.status.tips); len(tip) != 0 {
		t.Errorf("the tip stays after the pointer left: %q", tip)
	}
}
