package review

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// selection is what the person chose to apply: for each ticked file, the
// numbers of its accepted hunks, nil for the whole file. A file whose
// every hunk is rejected is left out.
func (t *reviewTab) selection(cs changeset.ChangeSet) map[string][]int {
	sel := map[string][]int{}
	for _, f := range cs.Files {
		if !t.include[f.Path] || !applicable(f) {
			continue
		}
		rejected := t.reject[f.Path]
		hunks := changeset.Hunks(f)
		var accepted []int
		for _, h := range hunks {
			if !rejected[h.N] && !hunkDone(f, h.N) {
				accepted = append(accepted, h.N)
			}
		}
		switch {
		case len(accepted) == 0 && len(hunks) > 0:
		case len(accepted) == len(hunks):
			sel[f.Path] = nil
		default:
			sel[f.Path] = accepted
		}
	}
	return sel
}

// hunkDone reports whether hunk n of f is already applied or rejected in
// the store.
func hunkDone(f changeset.FileChange, n int) bool {
	s := storedHunkState(f, n)
	return s == changeset.StateApplied || s == changeset.FileRejected
}

// applyAccepted applies the accepted hunks of the ticked files, after the
// unsaved-buffer rule: an apply writes files on disk, so a file with
// unsaved edits in its editor is saved first, with the person's consent,
// or nothing is applied. Main goroutine only.
func (t *reviewTab) applyAccepted() { t.applySelection(t.cs, t.selection(t.cs)) }

// applySelection applies sel of cs under the unsaved-buffer rule. Main
// goroutine only.
func (t *reviewTab) applySelection(cs changeset.ChangeSet, sel map[string][]int) {
	if len(sel) == 0 {
		t.v.host.Status("Tick a file and accept a hunk to apply " + t.id)
		return
	}
	paths := make([]string, 0, len(sel))
	for _, f := range cs.Files {
		if _, ok := sel[f.Path]; ok {
			paths = append(paths, f.Path)
		}
	}
	unsaved := t.v.host.Unsaved(paths)
	if len(unsaved) == 0 {
		t.applyNow(sel)
		return
	}
	t.askSaveFirst(unsaved, func() { t.applyNow(sel) })
}

// askSaveFirst says that files have unsaved edits and offers to save them
// and go on; Cancel writes nothing. Main goroutine only.
func (t *reviewTab) askSaveFirst(unsaved []string, then func()) {
	msg := fmt.Sprintf("%s %s unsaved edits in the editor.\n\nApplying writes the files on disk, and Trestle never writes your unsaved text behind your back: "+
		"save them first (the apply then checks the saved text against the proposal), or cancel and nothing is written.",
		strings.Join(unsaved, ", "), map[bool]string{true: "has", false: "have"}[len(unsaved) == 1])
	d := dialog.NewConfirm("Unsaved edits in "+strings.Join(unsaved, ", "), msg, func(ok bool) {
		if !ok {
			t.v.host.Status("Nothing applied: " + strings.Join(unsaved, ", ") + " has unsaved edits")
			return
		}
		t.v.host.Save(unsaved, func(saved bool) {
			if saved {
				then()
			}
		})
	}, t.v.host.Window())
	d.SetConfirmText("Save and Apply")
	d.SetDismissText("Cancel")
	t.v.host.ShowDialog(d)
}

// applyNow applies sel off the main goroutine. Main goroutine only.
func (t *reviewTab) applyNow(sel map[string][]int) {
	id, v := t.id, t.v
	t.work(func() {
		res, err := v.applySelection(id, sel)
		v.finish("Apply "+id, res, err, func(f changeset.FileChange) (string, bool) {
			_, picked := sel[f.Path]
			return f.Base, picked && (f.State == changeset.StateApplied || f.State == changeset.StatePartlyApplied)
		})
	})
}

// askRevert says what a revert will do and reverts when the person
// confirms. Main goroutine only.
func (t *reviewTab) askRevert() {
	var files []string
	for _, f := range t.cs.Files {
		if f.State == changeset.StateApplied || f.State == changeset.StatePartlyApplied {
			files = append(files, changeset.MarkControls(f.Path))
		}
	}
	msg := fmt.Sprintf("Revert writes back the text these files had before %s was applied:\n\n%s\n\n"+
		"A file changed since is not touched, and then nothing is written. Undo Revert applies the set again.",
		t.id, "• "+strings.Join(files, "\n• "))
	d := dialog.NewConfirm("Revert "+t.id+"?", msg, func(ok bool) {
		if ok {
			t.revertNow()
		}
	}, t.v.host.Window())
	d.SetConfirmText("Revert")
	d.SetDismissText("Cancel")
	t.v.host.ShowDialog(d)
}

// revertNow restores the base of the applied files, off the main
// goroutine. Main goroutine only.
func (t *reviewTab) revertNow() {
	id, v := t.id, t.v
	t.work(func() {
		res, err := v.m.Revert(id, v.reader(), nil)
		v.finish("Revert "+id, res, err, func(f changeset.FileChange) (string, bool) {
			return f.New, f.State == changeset.FileReverted
		})
	})
}

// undoRevert applies a reverted set again, off the main goroutine. Main
// goroutine only.
func (t *reviewTab) undoRevert() {
	id, v := t.id, t.v
	t.work(func() {
		res, err := v.undoRevert(id)
		v.finish("Undo the revert of "+id, res, err, func(f changeset.FileChange) (string, bool) {
			return f.Base, f.State == changeset.StateApplied
		})
	})
}

// askReject asks for an optional reason, then rejects the set. Main
// goroutine only.
func (t *reviewTab) askReject() {
	reason := newEscEntry(t.v.host)
	reason.SetPlaceHolder("optional: why, for the agent to read")
	items := []*widget.FormItem{widget.NewFormItem("Reason", reason)}
	id := t.id
	d := dialog.NewForm("Reject "+id+": "+changeset.MarkControls(t.cs.Title), "Reject", "Cancel", items, func(ok bool) {
		if ok {
			t.v.rejectWith(id, reason.Text)
		}
	}, t.v.host.Window())
	reason.OnSubmitted = func(string) { d.Submit() } // Enter rejects
	d.Resize(fyne.NewSize(480, 0))
	t.v.host.ShowDialog(d)
	t.v.host.Window().Canvas().Focus(reason)
}

// copyCommitMessage puts the set's title and description on the
// clipboard as a commit message (Trestle stages and commits nothing).
func (t *reviewTab) copyCommitMessage() {
	fyne.CurrentApp().Clipboard().SetContent(commitMessage(t.cs))
	t.v.host.Status("Copied " + t.id + "'s commit message.")
}

// startEdit shows the proposed new text of path in an editable view.
func (t *reviewTab) startEdit(path string) {
	t.editing = path
	t.showFile(t.file)
}

// editorOf is the editable view of f's proposed text: what the person
// saves there is what applies.
func (t *reviewTab) editorOf(f changeset.FileChange) fyne.CanvasObject {
	entry := widget.NewMultiLineEntry()
	entry.SetText(f.New)
	entry.TextStyle = fyne.TextStyle{Monospace: true}
	entry.Wrapping = fyne.TextWrapOff
	path, id, v := f.Path, t.id, t.v
	save := widget.NewButton("Use This Text", func() {
		text := entry.Text
		t.editing = ""
		t.work(func() {
			_, err := v.editFile(id, path, text)
			fyne.Do(func() {
				if err != nil {
					v.showError(err)
				} else {
					v.host.Status("Your text for " + path + " will be applied; the agent is told you changed it.")
				}
			})
			v.reload()
		})
	})
	save.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { t.editing = ""; t.showFile(t.file) })
	bar := container.NewBorder(nil, nil, nil, container.NewHBox(cancel, save),
		wrapLabel("Editing the proposed text of "+changeset.MarkControls(path)+": the text you keep here is what applies."))
	return container.NewBorder(bar, nil, nil, nil, entry)
}

// work disables the buttons and runs fn off the main goroutine; the next
// build enables them again. Main goroutine only.
func (t *reviewTab) work(fn func()) {
	t.setButtons(changeset.ChangeSet{})
	t.v.async(fn)
}

// rejectWith rejects change set id with reason, off the main goroutine.
// Main goroutine only.
func (v *View) rejectWith(id, reason string) {
	v.async(func() {
		_, err := v.m.Reject(id, strings.TrimSpace(reason))
		fyne.Do(func() {
			if err != nil {
				v.showError(err)
			} else {
				v.host.Status("Rejected " + id)
			}
		})
		v.reload()
	})
}

// finish reports an apply or a revert and, when it wrote files, shows
// their new content in their open tabs: written says, for each file of
// res, whether it was written and the text its tab had to hold before.
// Off the main goroutine.
func (v *View) finish(what string, res changeset.ChangeSet, err error, written func(changeset.FileChange) (string, bool)) {
	if err == nil {
		before := map[string]string{}
		for _, f := range res.Files {
			if old, ok := written(f); ok {
				before[f.Path] = old
			}
		}
		v.host.FilesWritten(before)
	}
	fyne.Do(func() {
		switch {
		case errors.Is(err, changeset.ErrConflict):
			v.showProblem(what+" refused", conflictText(res, err))
		case err != nil:
			v.showError(err)
		default:
			v.host.Status(fmt.Sprintf("%s %s", res.ID, stateText(res.State)))
		}
	})
	v.reload()
	fyne.Do(func() {
		if t := v.tabs[res.ID]; t != nil && t.cs.ID != "" {
			t.setButtons(t.cs)
		}
	})
}

// conflictText says which files changed since, from the conflicts res
// records, else from err.
func conflictText(res changeset.ChangeSet, err error) string {
	var lines []string
	for _, f := range res.Files {
		if f.State == changeset.StateConflict && f.Detail != "" {
			lines = append(lines, "• "+changeset.MarkControls(f.Detail))
		}
	}
	if len(lines) == 0 {
		return err.Error()
	}
	return "Nothing was written. These files changed since the proposal:\n\n" + strings.Join(lines, "\n") +
		"\n\nLook at them, then ask the agent for a new proposal or reject this one."
}

// showProblem shows msg in a dialog and in the status bar. Main goroutine only.
func (v *View) showProblem(title, msg string) {
	v.host.Status(title)
	v.host.ShowDialog(dialog.NewInformation(title, msg, v.host.Window()))
}

// showError shows err in a dialog and in the status bar. Main goroutine only.
func (v *View) showError(err error) {
	v.host.Status(err.Error())
	v.host.ShowDialog(dialog.NewError(err, v.host.Window()))
}
