package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/eval"
	"trestle/app/services"
	"trestle/internal/testfix"
)

func TestEvalInputShiftEnterAddsALineEnterRunsEscStops(t *testing.T) {
	test.NewTempApp(t)
	e := newEvalPane()
	var got []string
	stops := 0
	e.onSubmit = func(code string) { got = append(got, code) }
	e.onStop = func() { stops++ }
	w := test.NewWindow(e.content)
	defer w.Close()
	w.Resize(fyne.NewSize(600, 300))
	w.Canvas().Focus(e.input)
	test.Type(e.input, "x := 1")
	e.input.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	e.input.TypedKey(&fyneKeyReturn)
	e.input.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if len(got) != 0 || e.input.Text != "x := 1\n" {
		t.Fatalf("Shift+Enter: submitted %q, input %q", got, e.input.Text)
	}
	test.Type(e.input, "x + 1")
	if e.input.rows != 2 {
		t.Fatalf("a two-line input shows %d rows", e.input.rows)
	}
	e.input.TypedKey(&fyneKeyReturn)
	if len(got) != 1 || got[0] != "x := 1\nx + 1" || e.input.Text != "" {
		t.Fatalf("Enter: submitted %q, input %q", got, e.input.Text)
	}
	// Up on the first line brings the two-line input back
	e.input.TypedKey(&fyneKeyUp)
	if e.input.Text != "x := 1\nx + 1" {
		t.Fatalf("Up gave %q", e.input.Text)
	}
	test.Type(e.input, strings.Repeat("\n", 12))
	if e.input.rows != maxInputRows {
		t.Fatalf("a 14-line input shows %d rows, want %d", e.input.rows, maxInputRows)
	}
	test.Tap(e.stop)
	e.input.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if stops != 2 {
		t.Fatalf("Stop and Esc stopped %d times, want 2", stops)
	}
}

func TestEvalTranscriptWrapsAndColoursErrors(t *testing.T) {
	test.NewTempApp(t)
	tr := newEvalTranscript(100)
	tr.append(evalLine{"» [you] strings.Repeat(\"ab\", 20)", lineInput}, evalLine{"! 1:8: undefined: nope", lineError})
	tr.setCols(10)
	if n := len(tr.grid.Rows); n != 4+3 { // 33 cells in 4 rows, 22 in 3
		t.Fatalf("%d rows after wrapping at 10 columns", n)
	}
	if tr.grid.Rows[0].Style != nil {
		t.Error("an input line is drawn in the text colour")
	}
	errColour := theme.Color(theme.ColorNameError)
	for _, r := range tr.grid.Rows[4:] {
		s, ok := r.Style.(*widget.CustomTextGridStyle)
		if !ok || !sameColour(s.FGColor, errColour) {
			t.Fatalf("an error row is not in the error colour: %#v", r.Style)
		}
	}
	if got := tr.text(0); got != "» [you] strings.Repeat(\"ab\", 20)\n! 1:8: undefined: nope\n" {
		t.Fatalf("text is the unwrapped lines: %q", got)
	}
	tr.setCols(40)
	if n := len(tr.grid.Rows); n != 2 {
		t.Fatalf("%d rows after widening", n)
	}
	// laid out, the grid's width sets the columns
	w := test.NewWindow(tr.box)
	defer w.Close()
	w.Resize(fyne.NewSize(200, 200))
	if tr.cols < 5 || tr.cols > 40 {
		t.Fatalf("a 200-wide pane wraps at %d columns", tr.cols)
	}
}

func sameColour(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

func TestEvalPaneOffersReplayAfterTheStateIsLost(t *testing.T) {
	w := newTestWindow(t)
	w.connectServices(servicesWithEval(w))
	w.loading.Wait() // connectServices reads the configuration on a goroutine
	w.EvalDone(person, "", "s := 1", eval.Result{Mode: eval.ModeInterpreted}, nil)
	p := w.panes.eval
	if p.lost.Visible() {
		t.Fatal("the state-lost bar shows before anything was lost")
	}
	lost := []string{"import \"strings\"", "s := strings.ToUpper(\"a\")"}
	w.EvalDone(person, "", "for {}", eval.Result{StateLost: true, Lost: lost}, fmt.Errorf("evaluate: the deadline passed; state lost: %w", eval.ErrDeadline))
	if !p.lost.Visible() || !p.replay.Visible() || !strings.Contains(p.lostText.Text, "Replay the 2 inputs") {
		t.Fatalf("after a deadline the pane offers no replay: %q", p.lostText.Text)
	}
	var replayed []string
	p.onReplay = func(sel string, codes []string) { replayed = append([]string{sel}, codes...) }
	test.Tap(p.replay)
	if got := strings.Join(replayed, "|"); got != "default|import \"strings\"|s := strings.ToUpper(\"a\")" {
		t.Fatalf("replayed %q", got)
	}
	if p.lost.Visible() {
		t.Fatal("the bar stays after Replay")
	}
}

// TestEvalPaneReplaysThroughARealEvaluator: a deadline kills a real
// worker; Replay sends the defining input again, and its state is back.
func TestEvalPaneReplaysThroughARealEvaluator(t *testing.T) {
	w := newTestWindow(t)
	m := eval.NewManager(eval.ManagerOptions{Root: w.project.Root, Module: "example.com/demo", WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	w.connectServices(services.Services{Eval: m})
	w.loading.Wait()
	w.settings.EvalDeadline = 20
	w.evalUI.byPerson("x := 41")
	w.loading.Wait()
	w.settings.EvalDeadline = 1
	w.evalUI.byPerson("for {}")
	w.loading.Wait()
	p := w.panes.eval
	if !p.replay.Visible() || len(p.pending.codes) != 1 {
		t.Fatalf("no replay offered after the deadline: %q\n%s", p.lostText.Text, p.transcript.text(0))
	}
	w.settings.EvalDeadline = 20
	test.Tap(p.replay)
	w.loading.Wait()
	w.evalUI.byPerson("x + 1")
	w.loading.Wait()
	if got := p.transcript.text(0); !strings.Contains(got, "» [replay] x := 41") || !strings.HasSuffix(got, "» [you] x + 1\n= 42 (int)\n\n") {
		t.Fatalf("transcript:\n%s", got)
	}
}

// servicesWithEval gives the window an evaluator manager (no worker ever
// starts in these tests: they feed EvalDone directly).
func servicesWithEval(w *Window) services.Services {
	m := eval.NewManager(eval.ManagerOptions{Root: w.project.Root})
	return services.Services{Eval: m}
}

func TestTranscriptMarksCompiledAndColoursEachErrorLine(t *testing.T) {
	lines := transcript("you", "for range 3 {}\n  nope", eval.Result{Mode: eval.ModeCompiled,
		Err: "2:3: undefined: nope\n(this input ran compiled)", Notes: []string{"ran compiled because x"}}, nil)
	if !strings.HasPrefix(lines[0].text, "» [you, compiled] ") {
		t.Fatalf("first line %q", lines[0].text)
	}
	var kinds []lineKind
	for _, l := range lines[2:] {
		kinds = append(kinds, l.kind)
	}
	if fmt.Sprint(kinds) != fmt.Sprint([]lineKind{lineError, lineError, lineNote, lineInput}) {
		t.Fatalf("kinds %v of %q", kinds, linesText(lines))
	}
}

// TestEvalInputTypesIntactWhenItWraps: Fyne's word wrapping moved a space
// typed at a wrap point to the end of the text; the input wraps at any
// character instead, so what is typed in a narrow pane stays as typed.
func TestEvalInputTypesIntactWhenItWraps(t *testing.T) {
	test.NewTempApp(t)
	e := newEvalPane()
	w := test.NewWindow(e.content)
	defer w.Close()
	w.Resize(fyne.NewSize(120, 200))
	code := "for i := range 10 { s += i } // and a long comment that wraps"
	test.Type(e.input, code)
	if e.input.Text != code {
		t.Fatalf("typed %q", e.input.Text)
	}
}

// TestEvalTranscriptKeepsItsEndInViewWhenThePaneShrinks: the transcript
// follows its end when the room below it grows after a line arrived: the
// Replay bar that comes with a deadline's error, the input going back to
// its two-row hint after Enter. The error's last rows and a running
// input's echo were left hidden below the bar until the person scrolled.
func TestEvalTranscriptKeepsItsEndInViewWhenThePaneShrinks(t *testing.T) {
	w := newTestWindow(t)
	w.connectServices(servicesWithEval(w))
	w.loading.Wait() // connectServices reads the configuration on a goroutine
	w.Window().Resize(fyne.NewSize(1024, 700))
	w.panes.show(w.panes.eval)
	for i := range 40 {
		w.EvalDone(person, "", fmt.Sprintf("x%d := %d", i, i), eval.Result{Mode: eval.ModeInterpreted}, nil)
	}
	p := w.panes.eval
	g := p.transcript.grid
	endShown := func() (bool, string) {
		bottom := g.PositionForCursorLocation(len(g.Rows), 0).Y // the last row's lower edge, scrolled
		return bottom <= g.Size().Height+1, fmt.Sprintf("the last row ends at %.0f in a transcript %.0f high", bottom, g.Size().Height)
	}
	if ok, why := endShown(); !ok {
		t.Fatalf("after 40 inputs: %s", why)
	}
	lost := []string{"import \"time\"", "a := 41"}
	w.EvalDone(person, "", "time.Sleep(time.Minute)", eval.Result{StateLost: true, Lost: lost},
		fmt.Errorf("evaluate in selection \"default\": the deadline of 10s passed; the evaluator was killed and its state was lost; %s: %w",
			strings.Repeat("the next evaluation starts a fresh one ", 6), eval.ErrDeadline))
	if !p.lost.Visible() {
		t.Fatal("a deadline shows no Replay bar")
	}
	p.content.Refresh() // as the desktop driver's next frame lays out what grew: the bar takes its room
	if ok, why := endShown(); !ok {
		t.Fatalf("with the Replay bar shown: %s; the error's end is hidden behind the bar", why)
	}
}

// TestEvalPaneShowsThatAnInputRuns: Enter clears the input and the
// transcript shows an input only with its answer, so a slow input showed
// nothing in the pane while it ran. Now a line above the input says what
// runs until the answer comes (here: a real worker's endless loop, until
// Stop).
func TestEvalPaneShowsThatAnInputRuns(t *testing.T) {
	w := newTestWindow(t)
	m := eval.NewManager(eval.ManagerOptions{Root: w.project.Root, Module: "example.com/demo", WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	w.connectServices(services.Services{Eval: m})
	w.loading.Wait()
	w.settings.EvalDeadline = 120
	p := w.panes.eval
	w.panes.show(p)
	w.Window().Canvas().Focus(p.input)
	test.Type(p.input, "for {}")
	p.input.TypedKey(&fyneKeyReturn)
	if !p.running.Visible() || !strings.Contains(p.running.Text, "for {}") {
		t.Fatalf("while the input runs the pane shows no running line (%v %q); transcript:\n%s", p.running.Visible(), p.running.Text, p.transcript.text(0))
	}
	// Stop once the worker runs it (the status read and Stop take the
	// evaluator's lock, which orders the reads above before the answer).
	testfix.Wait(t, 60*time.Second, "the worker running the loop", func() bool {
		for _, st := range m.Status() {
			if st.State == eval.StateRunning {
				return true
			}
		}
		return false
	})
	test.Tap(p.stop)
	w.loading.Wait() // the evaluation, stopped, and its answer shown
	if got := p.transcript.text(0); !strings.Contains(got, "» [you] for {}") {
		t.Fatalf("no answer for the loop in the transcript:\n%s", got)
	}
	if p.running.Visible() {
		t.Fatalf("the running line stays after the answer: %q", p.running.Text)
	}
}
