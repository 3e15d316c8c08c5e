package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// welcomeText is the first run's word to a person: what Trestle is, what
// to try in the scratch module, and how to bring their own project.
const welcomeText = `**Welcome to Trestle**, a workbench for Go projects that coding agents attach to.

This is a small scratch module to try it on. Open **main.go** from the tree, evaluate Go against its
packages in the **Eval** pane below (try ` + "`import \"scratch/greet\"`" + ` then ` + "`greet.Hello(\"you\")`" + `), build
it with **Ctrl+Shift+B**, find a file with **Ctrl+P** and any command with **Ctrl+Shift+P**.

Open your own project with **File › Open Folder…** (Ctrl+O).

Attach an agent: run this in your project folder (Claude Code; **Agents › Copy Attach Configuration**
has Cursor and Codex too). The agent sees what you see and proposes change sets that only you apply.`

// showWelcome puts the first run's welcome where the editor's "open a file"
// hint is, with the attach command and a button that copies it. It must be
// called on the main goroutine.
func (m *menuUI) showWelcome(attach string) {
	w := m.w
	text := widget.NewRichTextFromMarkdown(welcomeText)
	text.Wrapping = fyne.TextWrapWord
	cmd := widget.NewLabelWithStyle(attach, fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	cmd.Wrapping = fyne.TextWrapBreak
	copyCmd := newEscButton("Copy", func() {
		fyne.CurrentApp().Clipboard().SetContent(attach)
		w.status.notify("Copied the attach command: run it in your project folder.")
	})
	card := container.NewVBox(text, container.NewBorder(nil, nil, nil, copyCmd, cmd))
	w.tabs.setHint(container.NewPadded(container.NewVScroll(card)))
}

// showMessages opens the status bar's recent messages, whole and newest
// first: a message the bar cut, or one that has gone, can be read there.
// It must be called on the main goroutine.
func (m *menuUI) showMessages() {
	w := m.w
	recent := w.status.recent
	if len(recent) == 0 {
		return
	}
	lines := make([]string, len(recent))
	for i, m := range recent {
		lines[len(recent)-1-i] = m
	}
	text := widget.NewLabel(strings.Join(lines, "\n"))
	text.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom("Messages", "Close", container.NewVScroll(text), w.win)
	size := w.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(size.Width-60, 760), min(size.Height-60, 420)))
	w.dialogs.show(d)
}
