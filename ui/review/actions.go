package review

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"trestle/app/changeset"
)

// decisions is what the person chose in a review: the hunks to apply and
// the hunks to record as rejected, by file (a nil list: every pending
// hunk of the file).
type decisions struct {
	apply, reject changeset.Selection
}

func (d decisions) empty() bool { return len(d.apply) == 0 && len(d.reject) == 0 }

// decisions collects, over the ticked files, the pending hunks accepted
// and rejected. A file left unticked, and a hunk not decided, stays
// pending.
func (t *reviewTab) decisions(cs changeset.ChangeSet) decisions {
	d := decisions{apply: changeset.Selection{}, reject: changeset.Selection{}}
	for _, f := range cs.Files {
		if !t.include[f.Path] || !applicable(f) {
			continue
		}
		hunks := t.hunksOfFile(f)
		if len(hunks) == 0 { // an empty new file: one unit, applied whole
			d.apply[f.Path] = nil
			continue
		}
		var accepted, rejected []int
		for _, h := range hunks {
			switch {
			case !undecided(storedHunkState(f, h.N)):
			case t.reject[f.Path][h.N]:
				rejected = append(rejected, h.N)
			case t.accepted(f.Path, h.N):
				accepted = append(accepted, h.N)
			} // undecided: stays pending
		}
		if len(accepted) > 0 {
			d.apply[f.Path] = accepted
		}
		if len(rejected) > 0 {
			d.reject[f.Path] = rejected
		}
	}
	return d
}

// applyAccepted applies the accepted hunks of the ticked files and records
// the rejected ones, after the unsaved-buffer rule: an apply writes files
// on disk, so a file with unsaved edits in its editor is saved first, with
// the person's consent, or nothing is applied. Main goroutine only.
func (t *reviewTab) applyAccepted() { t.decide(t.cs, t.decisions(t.cs)) }

// decide carries out d on cs under the unsaved-buffer rule. Main
// goroutine only.
func (t *reviewTab) decide(cs changeset.ChangeSet, d decisions) {
	if d.empty() {
		t.v.host.Status("Tick a file and accept or reject a hunk to apply " + t.id)
		return
	}
	var paths []string
	for _, f := range cs.Files {
		if _, ok := d.apply[f.Path]; ok {
			paths = append(paths, f.Path)
		}
	}
	unsaved := t.v.host.Unsaved(paths)
	if len(unsaved) == 0 {
		t.applyNow(d)
		return
	}
	t.askSaveFirst(unsaved, "Apply", func() { t.applyNow(d) })
}

// askSaveFirst says that files have unsaved edits and offers to save them
// and go on; Cancel writes nothing. Main goroutine only.
func (t *reviewTab) askSaveFirst(unsaved []string, verb string, then func()) {
	msg := fmt.Sprintf("%s %s unsaved edits in the editor.\n\nThis writes the files on disk, and Trestle never writes your unsaved text behind your back: "+
		"save them first (the saved text is then checked against what the change set expects), or cancel and nothing is written.",
		strings.Join(unsaved, ", "), map[bool]string{true: "has", false: "have"}[len(unsaved) == 1])
	d := dialog.NewConfirm("Unsaved edits in "+strings.Join(unsaved, ", "), msg, func(ok bool) {
		if !ok {
			t.v.host.Status("Nothing written: " + strings.Join(unsaved, ", ") + " has unsaved edits")
			t.held(verb, unsaved)
			return
		}
		t.v.host.Save(unsaved, func(saved bool) {
			if saved {
				then()
			}
		})
	}, t.v.host.Window())
	d.SetConfirmText("Save and " + verb)
	d.SetDismissText("Cancel")
	t.v.host.ShowDialog(d)
}

// held records in the set's history that the person held verb back
// because unsaved are not saved, so the agent reads why the set is still
// as it was. Main goroutine only.
func (t *reviewTab) held(verb string, unsaved []string) {
	id, v := t.id, t.v
	what := fmt.Sprintf("%s held: %s %s unsaved edits in the editor and the person kept them unsaved; nothing was written",
		strings.ToLower(verb), strings.Join(unsaved, ", "), map[bool]string{true: "has", false: "have"}[len(unsaved) == 1])
	files := slices.Clone(unsaved)
	v.async(func() {
		if _, err := v.m.Note(id, changeset.ActionHeld, changeset.ByPerson, what, files); err != nil {
			v.notify("Could not note in " + id + "'s history that it was held: " + err.Error())
			return
		}
		v.reload()
	})
}

// applyNow carries out d off the main goroutine. Main goroutine only.
func (t *reviewTab) applyNow(d decisions) {
	id, v, paths := t.id, t.v, t.paths()
	t.work(func() {
		before := v.texts(paths)
		res, err := v.applySelection(id, d.apply, d.reject)
		v.finish("Apply "+id, res, err, before, func(f changeset.FileChange) bool {
			_, picked := d.apply[f.Path]
			return picked
		})
	})
}

// paths lists the files of the set.
func (t *reviewTab) paths() []string {
	out := make([]string, len(t.cs.Files))
	for i, f := range t.cs.Files {
		out[i] = f.Path
	}
	return out
}

// texts reads paths as the person sees them, before an apply or a revert
// changes them: the text each editor must still hold to be shown the
// change (an editor typed into since keeps the person's text). Off the
// main goroutine.
func (v *View) texts(paths []string) map[string]string {
	out := map[string]string{}
	for _, p := range paths {
		path, err := v.m.Project().Resolve(p)
		if err != nil {
			continue
		}
		if text, _, err := v.host.CurrentText(context.Background(), path); err == nil {
			out[p] = text
		}
	}
	return out
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
			t.editedFirst("Revert", t.pathsIn(changeset.StateApplied, changeset.StatePartlyApplied), t.revertNow)
		}
	}, t.v.host.Window())
	d.SetConfirmText("Revert")
	d.SetDismissText("Cancel")
	t.v.host.ShowDialog(d)
}

// revertNow restores the base of the applied files, off the main
// goroutine. Main goroutine only.
func (t *reviewTab) revertNow() {
	id, v, paths := t.id, t.v, t.paths()
	t.work(func() {
		before := v.texts(paths)
		res, err := v.m.Revert(id, v.reader(), nil)
		v.finish("Revert "+id, res, err, before, func(f changeset.FileChange) bool { return f.State == changeset.FileReverted })
	})
}

// editedFirst runs write, a revert or its undo, unless a file it would
// write (paths) has unsaved edits: then it says why it cannot go on and
// writes nothing. Such a revert is refused either way (it checks the text
// the person sees against what the set wrote; saving the edits first
// changes the file on disk too), so it offers no "Save and Revert", which
// saved, then always refused. Main goroutine only.
func (t *reviewTab) editedFirst(verb string, paths []string, write func()) {
	unsaved := t.v.host.Unsaved(paths)
	if len(unsaved) == 0 {
		write()
		return
	}
	names := strings.Join(unsaved, ", ")
	msg := fmt.Sprintf("%s %s unsaved edits in the editor.\n\n%s writes files back only while they are as %s left them, "+
		"so it cannot keep those edits, saved or not: undo them (Ctrl+Z) or close the tab and discard them, then %s again.",
		names, map[bool]string{true: "has", false: "have"}[len(unsaved) == 1], verb, t.id, strings.ToLower(verb))
	d := dialog.NewCustom("Unsaved edits in "+names, "Cancel", widget.NewLabel(msg), t.v.host.Window())
	d.SetOnClosed(func() {
		t.v.host.Status("Nothing written: " + names + " has unsaved edits")
		t.held(verb, unsaved)
	})
	t.v.host.ShowDialog(d)
}

// pathsIn are the set's files in one of states.
func (t *reviewTab) pathsIn(states ...string) []string {
	var out []string
	for _, f := range t.cs.Files {
		if slices.Contains(states, f.State) {
			out = append(out, f.Path)
		}
	}
	return out
}

// undoRevert applies a reverted set again (after the unsaved-buffer rule),
// off the main goroutine. Main goroutine only.
func (t *reviewTab) undoRevert() {
	t.editedFirst("Undo Revert", t.pathsIn(changeset.FileReverted), t.undoRevertNow)
}

func (t *reviewTab) undoRevertNow() {
	id, v, paths := t.id, t.v, t.paths()
	t.work(func() {
		before := v.texts(paths)
		res, err := v.m.UndoRevert(id, v.reader(), nil)
		v.finish("Undo the revert of "+id, res, err, before, func(f changeset.FileChange) bool { return f.State != changeset.FileReverted })
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

// askRejectFile asks for an optional reason, then rejects every pending
// hunk of path (the rest of the set stays as it is). Main goroutine only.
func (t *reviewTab) askRejectFile(path string) {
	reason := newEscEntry(t.v.host)
	reason.SetPlaceHolder("optional: why, for the agent to read")
	items := []*widget.FormItem{widget.NewFormItem("Reason", reason)}
	id, v := t.id, t.v
	d := dialog.NewForm("Reject "+changeset.MarkControls(path)+" of "+id, "Reject File", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		text := strings.TrimSpace(reason.Text)
		t.work(func() {
			_, err := v.m.RejectSelection(id, changeset.Selection{path: nil}, text)
			v.do(func() {
				if err != nil {
					v.showError(err)
				} else {
					v.host.Status("Rejected " + path + " of " + id)
				}
			})
			v.reload()
		})
	}, t.v.host.Window())
	reason.OnSubmitted = func(string) { d.Submit() }
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
			_, err := v.m.EditFile(id, path, text)
			v.do(func() {
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
	var rest changeset.Selection // a partly applied set: every file still pending
	if i := v.index(id); i >= 0 && !v.sets[i].Undecided() {
		rest = changeset.Selection{}
		for _, f := range v.sets[i].Files {
			if applicable(f) {
				rest[f.Path] = nil
			}
		}
	}
	v.async(func() {
		var err error
		if rest != nil {
			_, err = v.m.RejectSelection(id, rest, strings.TrimSpace(reason))
		} else {
			_, err = v.m.Reject(id, strings.TrimSpace(reason))
		}
		v.do(func() {
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
// their new content in their open editors: written says which files of
// res it wrote, and before holds the text each editor had to hold. Off
// the main goroutine.
func (v *View) finish(what string, res changeset.ChangeSet, err error, before map[string]string, written func(changeset.FileChange) bool) {
	if err == nil {
		shown := map[string]string{}
		for _, f := range res.Files {
			if text, ok := before[f.Path]; ok && written(f) {
				shown[f.Path] = text
			}
		}
		v.host.FilesWritten(shown)
	}
	v.do(func() {
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
	v.do(func() {
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
