package ui

import (
	"fmt"

	"fyne.io/fyne/v2/dialog"

	"trestle/app/search"
	"trestle/app/textbuf"
	"trestle/ui/editor"
)

// replaceInFiles replaces every match of q in files with repl as the
// person's own edit: after a confirmation, each file is opened in its
// editor (where it is not yet) and changed there, unsaved, as one undo
// step of that editor; nothing is written to disk. It must be called on
// the main goroutine.
func (w *Window) replaceInFiles(q search.Query, repl string, files []string) {
	msg := fmt.Sprintf("Replace the matches of %q in %s with %q?\n\nEach file changes in its editor, unsaved, "+
		"with one undo step; nothing is written until you save.", q.Pattern, count(len(files), "file", "files"), repl)
	d := dialog.NewConfirm("Replace in Files", msg, func(ok bool) {
		if ok {
			w.replaceConfirmed(q, repl, files)
		}
	}, w.win)
	d.SetConfirmText("Replace All")
	w.dialogs.show(d)
}

func (w *Window) replaceConfirmed(q search.Query, repl string, files []string) {
	var toLoad []string
	for _, rel := range files {
		if w.tabs.find(rel) == nil {
			toLoad = append(toLoad, rel)
		}
	}
	p := w.project
	w.loading.Go(func() {
		loadedFiles := make([]loaded, 0, len(toLoad))
		var errs []error
		for _, rel := range toLoad {
			f, err := loadFile(p, rel)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			loadedFiles = append(loadedFiles, f)
		}
		w.onMain(func() {
			for _, f := range loadedFiles {
				if w.tabs.find(f.path) == nil {
					w.tabs.add(f)
				}
			}
			n, changed := 0, 0
			for _, rel := range files {
				t := w.tabs.find(rel)
				if t == nil || t.view == nil {
					continue
				}
				if k := replaceInEditor(t.view, q, repl); k > 0 {
					n, changed = n+k, changed+1
				}
			}
			msg := fmt.Sprintf("Replaced %s in %s: review and save them (each editor undoes its own).",
				count(n, "match", "matches"), count(changed, "file", "files"))
			if len(errs) > 0 {
				msg += fmt.Sprintf(" %d could not be opened: %v", len(errs), errs[0])
			}
			w.status.notify(msg)
		})
	})
}

// replaceInEditor replaces q's matches in e's text with repl as one undo
// step and returns how many changed.
func replaceInEditor(e *editor.Editor, q search.Query, repl string) int {
	edits, err := search.Replacements(e.Buffer().Text(), q, repl)
	if err != nil || len(edits) == 0 {
		return 0
	}
	ranges := make([]textbuf.Range, len(edits))
	texts := make([]string, len(edits))
	for i, ed := range edits {
		ranges[i] = textbuf.Range{Start: textbuf.Pos{Line: ed.Line, Col: ed.Start}, End: textbuf.Pos{Line: ed.Line, Col: ed.End}}
		texts[i] = ed.New
	}
	return e.ReplaceEach(ranges, texts)
}
