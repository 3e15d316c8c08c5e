package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"trestle/app/errdefs"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/ui/editor"
)

// typeError is a line that does not compile, typed into main.go unsaved.
const typeError = "\nvar _ int = \"not an int\"\n"

// unsavedTypeError opens main.go of a window with a real task runner and
// types a type error into it, unsaved: the disk still builds.
func unsavedTypeError(t *testing.T, unsaved string) (*Window, *editor.Editor, *task.Runner) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs go build")
	}
	w := newTestWindow(t)
	s := store.DefaultSettings()
	s.UnsavedBeforeRun = unsaved
	w.settings.use(s, "")
	runner := task.NewRunner(w.project.Root)
	w.connectServices(services.Services{Tasks: runner, Config: func() (projconf.Config, error) { return projconf.Defaults(), nil }})
	w.loading.Wait()
	// The runner's lines would reach the Run pane from a timer's goroutine,
	// which the test driver lets touch widgets beside RunEnded's: leave the
	// flushing to RunEnded.
	w.run.lines.after = func(time.Duration, func()) {}
	e := openEditor(t, w, "main.go")
	e.SetCaret(e.Buffer().End())
	test.Type(e.Page(), typeError)
	if !w.tabs.find("main.go").dirty() || strings.Contains(readProject(t, w, "main.go"), "not an int") {
		t.Fatal("the type error should be in the editor only")
	}
	return w, e, runner
}

// TestBuildNeverPassesOnDiskTextUnderAnUnsavedTypeError: Build with the
// default setting saves the editor first, so it fails on the type error
// the person sees instead of passing on the disk's old text.
func TestBuildNeverPassesOnDiskTextUnderAnUnsavedTypeError(t *testing.T) {
	w, e, runner := unsavedTypeError(t, "")
	w.run.byPerson("build")
	w.tabs.saving.Wait()
	w.loading.Wait()
	run := runner.Last()
	if run == nil {
		t.Fatal("Build did not run")
	}
	if run.State() == task.StatePassed {
		t.Fatal("go build passed on the disk's text while the editor held a type error")
	}
	probs := run.Problems()
	if len(probs) == 0 || probs[0].Path != "main.go" || !strings.Contains(probs[0].Message, "not an int") {
		t.Errorf("problems %+v, want the type error in main.go", probs)
	}
	if !strings.Contains(readProject(t, w, "main.go"), "not an int") || e.Buffer().Modified() {
		t.Error("the editor was not saved before the build")
	}
	// The recent messages, not the label: the label clears itself after
	// messageLifetime, which a cold build on a loaded machine outlasts.
	if msgs := strings.Join(w.status.recent, "\n"); !strings.Contains(msgs, "Saved main.go before the build task") {
		t.Errorf("the status bar said %q, not what was saved", msgs)
	}
}

// TestBuildAsksWhenSetToAsk: with "Ask", Build runs nothing until the
// person answers; Cancel runs nothing and saves nothing, Save All and Run
// saves and fails on the type error.
func TestBuildAsksWhenSetToAsk(t *testing.T) {
	w, e, runner := unsavedTypeError(t, store.UnsavedAsk)
	w.run.byPerson("build")
	cancel := findButton(w.win.Canvas(), "Cancel")
	if cancel == nil || findButton(w.win.Canvas(), "Save All and Run") == nil || findButton(w.win.Canvas(), "Run on Disk") == nil {
		t.Fatal("no unsaved files question")
	}
	if runner.Last() != nil {
		t.Fatal("Build ran before the person answered")
	}
	test.Tap(cancel)
	w.loading.Wait()
	if runner.Last() != nil || !e.Buffer().Modified() {
		t.Fatal("Cancel ran the build or saved the file")
	}

	w.run.byPerson("build")
	test.Tap(findButton(w.win.Canvas(), "Save All and Run"))
	w.tabs.saving.Wait()
	w.loading.Wait()
	if run := runner.Last(); run == nil || run.State() == task.StatePassed {
		t.Fatalf("Save All and Run: run %v, want a failed build", run)
	}
}

// TestAgentRunSavesFirstAndSaysSo: before an agent's run the window saves
// the unsaved editor and says so for the result; the build then fails on
// the type error, as the person's screen says it should.
func TestAgentRunSavesFirstAndSaysSo(t *testing.T) {
	w, e, runner := unsavedTypeError(t, store.UnsavedSave)
	note, err := w.BeforeRun(context.Background(), "claude-code", "go build ./...")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "Saved 1 unsaved file(s)") || !strings.Contains(note, "main.go") {
		t.Errorf("note %q does not say what was saved", note)
	}
	if e.Buffer().Modified() || !strings.Contains(readProject(t, w, "main.go"), "not an int") {
		t.Fatal("BeforeRun did not save the editor")
	}
	build, _ := projconf.Defaults().Task("build")
	run, err := runner.Start(context.Background(), build, nil, projconf.Selection{}, func(task.Line) {})
	if err != nil {
		t.Fatal(err)
	}
	<-run.Done()
	if run.State() == task.StatePassed {
		t.Fatal("the agent's build passed over the type error")
	}
	if note, err := w.BeforeRun(context.Background(), "claude-code", "go build ./..."); note != "" || err != nil {
		t.Errorf("with nothing unsaved BeforeRun said %q, %v; want nothing", note, err)
	}
}

// TestAgentRunAsksWhenSetToAsk: with "Ask" the agent's run waits for the
// person's answer, shown with the agent's name and the files; Cancel
// refuses the run, Run on Disk says the edits were left out, Save All and
// Run saves.
func TestAgentRunAsksWhenSetToAsk(t *testing.T) {
	for _, tt := range []struct {
		name, button, want string
		refused, saved     bool
	}{
		{"cancel", "Cancel", "the person did not choose to run", true, false},
		{"on disk", "Run on Disk", "leave the unsaved edits of main.go out", false, false},
		{"save", "Save All and Run", "as the person chose: main.go", false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w, e, _ := unsavedTypeError(t, store.UnsavedAsk)
			fake, run := fakeMain(t)
			w.main.setQueue(fake.enqueue)
			t.Cleanup(func() { w.main.setQueue(nil) })
			h := &askHarness{t: t, w: w, run: run}
			type answer struct {
				note string
				err  error
			}
			got := make(chan answer, 1)
			go func() {
				note, err := w.BeforeRun(context.Background(), "claude-code", "go test ./...")
				got <- answer{note, err}
			}()
			h.waitFor("the question", func() bool { return findButton(w.win.Canvas(), tt.button) != nil })
			labels, _ := h.shown()
			if text := strings.Join(labels, "\n"); !strings.Contains(text, "claude-code asks to run go test ./..., but main.go has unsaved changes") {
				t.Errorf("the question says %q", text)
			}
			b := h.button(tt.button)
			h.onMain(func() { test.Tap(b) })
			a := <-got
			switch {
			case tt.refused && !errors.Is(a.err, errdefs.ErrRefused):
				t.Fatalf("%s: err %v, want refused", tt.button, a.err)
			case !tt.refused && a.err != nil:
				t.Fatalf("%s: %v", tt.button, a.err)
			case !strings.Contains(a.note+errString(a.err), tt.want):
				t.Errorf("%s: note %q, err %v; want %q", tt.button, a.note, a.err, tt.want)
			}
			var modified bool
			h.onMain(func() { modified = e.Buffer().Modified() })
			onDisk, _ := os.ReadFile(filepath.Join(w.project.Root, "main.go"))
			if saved := !modified && strings.Contains(string(onDisk), "not an int"); saved != tt.saved {
				t.Errorf("%s: saved %v, want %v", tt.button, saved, tt.saved)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
