package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/errdefs"
)

// Tasks (go build, test, vet, .trestle.json's) read the files on disk, so
// a run while an editor holds unsaved text would test text the person no
// longer sees and could say "passed" over a type error on screen. Before a
// run from the window (the Run menu, its shortcuts, Test at Cursor) and
// before an agent's run in the window (trestle_run, trestle_diagnostics'
// vet), the unsaved editors are saved first, or, with the setting "Ask",
// the person chooses: Save All and Run, Run on Disk, or Cancel.

// saveBound is how long a run waits for the unsaved files to be written:
// local writes take milliseconds; past this the disk is in trouble.
const saveBound = 30 * time.Second

// unsavedChoice is the person's answer to the unsaved files question.
type unsavedChoice int

const (
	unsavedCancel unsavedChoice = iota // no choice, Cancel, Escape or the bound
	unsavedSave                        // Save All and Run
	unsavedOnDisk                      // Run on Disk, the unsaved text left out
)

// beforeByPerson calls start once the unsaved editors are dealt with as
// the setting says: saved first, or the person's choice. what names the
// run ("go test ./..."). Main goroutine only.
func (r *runUI) beforeByPerson(what string, start func()) {
	w := r.w
	dirty := w.tabs.dirtyTabs()
	if len(dirty) == 0 {
		start()
		return
	}
	if w.settings.SaveBeforeRun() {
		r.saveThen(dirty, what, start)
		return
	}
	r.showUnsaved(person, what, tabPaths(dirty), func(c unsavedChoice) {
		switch c {
		case unsavedSave:
			r.saveThen(w.tabs.dirtyTabs(), what, start)
		case unsavedOnDisk:
			start()
		}
	})
}

// saveThen saves dirty and calls start when every write succeeded.
func (r *runUI) saveThen(dirty []*fileTab, what string, start func()) {
	w := r.w
	names := fileNames(dirty)
	w.tabs.saveAll(func(ok bool) {
		if !ok {
			w.status.notify(what + " did not run: a file could not be saved (see the message)")
			return
		}
		w.status.notify(fmt.Sprintf("Saved %s before %s", names, what))
		start()
	})
}

// BeforeRun deals with the person's unsaved editors before an agent's run
// of command, as their setting says, and returns what it did for the
// agent's result ("" when nothing was unsaved). Saving first (the default)
// saves every unsaved editor and waits for the writes. Asking shows the
// person a dialog naming client and the files and waits up to AskBound
// for the answer: Run on Disk runs without the unsaved text (and says so);
// Cancel, no answer or ctx ending refuse the run (errdefs.ErrRefused). The
// window is reached through bounded main-thread calls (busy after
// DefaultCallBound); the waiting happens here, off the main goroutine.
// Safe for concurrent use from any goroutine but the main one.
func (w *Window) BeforeRun(ctx context.Context, client, command string) (string, error) {
	return w.run.beforeRun(ctx, client, command)
}

// beforeRun is BeforeRun. Any goroutine but the main one.
func (r *runUI) beforeRun(ctx context.Context, client, command string) (string, error) {
	w := r.w
	var files []string
	var saved chan bool // set when the setting saved at once
	err := w.main.call(ctx, 0, func() {
		dirty := w.tabs.dirtyTabs()
		files = tabPaths(dirty)
		if len(dirty) > 0 && w.settings.SaveBeforeRun() {
			saved = make(chan bool, 1)
			w.tabs.saveAll(func(ok bool) { saved <- ok })
		}
	})
	switch {
	case err != nil:
		return "", err
	case len(files) == 0:
		return "", nil
	case saved != nil:
		return awaitSaved(ctx, saved, files, "as the person's setting says")
	}
	switch c, err := r.askUnsaved(ctx, client, command, files); {
	case err != nil:
		return "", err
	case c == unsavedOnDisk:
		return fmt.Sprintf("Ran on the files on disk: the person chose to leave the unsaved edits of %s out of this run.",
			strings.Join(files, ", ")), nil
	case c == unsavedSave:
		ch := make(chan bool, 1)
		if err := w.main.call(ctx, 0, func() { w.tabs.saveAll(func(ok bool) { ch <- ok }) }); err != nil {
			return "", err
		}
		return awaitSaved(ctx, ch, files, "as the person chose")
	}
	return "", fmt.Errorf("did not run %s: %s %s unsaved changes and the person did not choose to run "+
		"(ask them to save, then run again): %w", command, strings.Join(files, ", "), haveOrHas(len(files)), errdefs.ErrRefused)
}

// awaitSaved waits for the writes saveAll started and says what was saved.
func awaitSaved(ctx context.Context, saved <-chan bool, files []string, why string) (string, error) {
	timer := time.NewTimer(saveBound)
	defer timer.Stop()
	select {
	case ok := <-saved:
		if !ok {
			return "", fmt.Errorf("did not run: saving the unsaved editors (%s) failed; the window shows why: %w",
				strings.Join(files, ", "), errdefs.ErrRefused)
		}
		return fmt.Sprintf("Saved %d unsaved file(s) before the run, %s: %s.", len(files), why, strings.Join(files, ", ")), nil
	case <-timer.C:
		return "", fmt.Errorf("did not run: saving %s took over %v: %w", strings.Join(files, ", "), saveBound, errdefs.ErrBusy)
	case <-ctx.Done():
		return "", fmt.Errorf("did not run: %w (%w)", ctx.Err(), errdefs.ErrBusy)
	}
}

// askUnsaved shows the unsaved files question for an agent's run and
// waits for the answer, as Ask waits for a permission: one question at a
// time with the permission dialogs, at most AskBound.
func (r *runUI) askUnsaved(ctx context.Context, client, command string, files []string) (unsavedChoice, error) {
	return askModal(ctx, r.w, unsavedCancel, func(answer chan<- unsavedChoice) dialog.Dialog {
		return r.showUnsaved(client, command, files, func(c unsavedChoice) { answer <- c })
	})
}

// showUnsaved asks who (the person or an agent) wants to run what while
// files have unsaved changes, and calls answer once with the choice
// (Cancel when the dialog closes any other way). Save All and Run is the
// highlighted choice. Main goroutine only.
func (r *runUI) showUnsaved(who, what string, files []string, answer func(unsavedChoice)) dialog.Dialog {
	w := r.w
	var d dialog.Dialog
	answered := false
	reply := func(c unsavedChoice) {
		if !answered {
			answered = true
			answer(c)
		}
	}
	choose := func(c unsavedChoice) func() { return func() { reply(c); d.Hide() } }
	asker := "You asked"
	if who != person {
		asker = who + " asks"
	}
	msg := fmt.Sprintf("%s to run %s, but %s %s unsaved changes.\nTasks read the files on disk: without saving, the run does not see them.",
		asker, what, strings.Join(files, ", "), haveOrHas(len(files)))
	text := widget.NewLabel(msg)
	text.Wrapping = fyne.TextWrapWord
	save := &widget.Button{Text: "Save All and Run", Importance: widget.HighImportance, OnTapped: choose(unsavedSave)}
	onDisk := widget.NewButton("Run on Disk", choose(unsavedOnDisk))
	cancel := widget.NewButton("Cancel", choose(unsavedCancel))
	c := dialog.NewCustomWithoutButtons("Unsaved files", text, w.win)
	c.SetButtons([]fyne.CanvasObject{cancel, onDisk, save})
	c.SetOnClosed(func() { reply(unsavedCancel) })
	c.Resize(fyne.NewSize(520, 0))
	d = c
	w.dialogs.show(d)
	return d
}

// tabPaths are the paths of tabs.
func tabPaths(tabs []*fileTab) []string {
	out := make([]string, len(tabs))
	for i, t := range tabs {
		out[i] = t.path
	}
	return out
}

func haveOrHas(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
