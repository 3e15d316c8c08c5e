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
// step of that editor; nothing is written to disk. It is the Search
// pane's Replace All. It must be called on the main goroutine.
func (a *tabArea) replaceInFiles(q search.Query, repl string, files []string) {
	msg := fmt.Sprintf("Replace the matches of %q in %s with %q?\n\nEach file changes in its editor, unsaved, "+
		"with one undo step; nothing is written until you save.", q.Pattern, count(len(files), "file", "files"), repl)
	d := dialog.NewConfirm("Replace in Files", msg, func(ok bool) {
		if ok {
			a.replaceConfirmed(q, repl, files)
		}
	}, a.win)
	d.SetConfirmText("Replace All")
	a.dialogs.show(d)
}

// replaceConfirmed reads the files without a tab off the main goroutine,
// then replaces in every file's editor. Main goroutine only.
func (a *tabArea) replaceConfirmed(q search.Query, repl string, files []string) {
	var toLoad []string
	for _, rel := range files {
		if a.find(rel) == nil {
			toLoad = append(toLoad, rel)
		}
	}
	p := a.project
	a.async(func() {
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
		a.main.do(func() {
			for _, f := range loadedFiles {
				if a.find(f.path) == nil {
					a.add(f)
				}
			}
			n, changed := 0, 0
			for _, rel := range files {
				t := a.find(rel)
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
			a.notify(msg)
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
