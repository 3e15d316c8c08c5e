package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"trestle/app/projconf"
	"trestle/app/task"
	"trestle/app/trust"
)

// The project's trust in the window (package trust). While the project
// is untrusted the status bar carries an "Untrusted" button; it opens a
// dialog that says what is off and what .trestle.json asked for, and
// offers Trust. Settings can revoke the trust again. A window made
// without a trust (tests of other parts) shows none of it, and its git
// still runs as for an untrusted project.

// untrustedText is the status bar button's label.
const untrustedText = "Untrusted"

// newTrustButton is the status bar's trust button, hidden until
// connect shows it.
func newTrustButton() *widget.Button {
	b := widget.NewButtonWithIcon(untrustedText, theme.WarningIcon(), nil)
	b.Importance = widget.WarningImportance
	b.Hide()
	return b
}

// trustUI is the window's trust part: the status bar's Untrusted button,
// the dialogs that offer trust, and Settings' revoking. It reaches the
// window's status bar, services and dialogs through w. Main goroutine only.
type trustUI struct {
	w *Window
	// afterTrust runs once the project is trusted (setThen).
	afterTrust func()
}

// connect links the status bar's button to the project's trust and
// follows its changes (part of New's fourth step). Main goroutine only.
func (t *trustUI) connect(tr *trust.Project) {
	w := t.w
	if tr == nil {
		return
	}
	w.status.trust.OnTapped = t.ask
	t.show(tr.Trusted())
	if !tr.Trusted() {
		w.status.notify("This project is untrusted: its git settings and .trestle.json tasks and environment are not used. " +
			"Click Untrusted in the status bar to see more or trust it.")
	}
	tr.OnChange(func(trusted bool) {
		w.onMain(func() {
			t.show(trusted)
			w.git.refresh()
			if trusted {
				w.status.notify("This project is trusted: its git settings and .trestle.json are used.")
			} else {
				w.status.notify("This project is untrusted again: its git settings and .trestle.json tasks and environment are not used.")
			}
			then := t.afterTrust // Trust and Run: runs with the trusted configuration shown
			t.afterTrust = nil
			if !trusted {
				then = nil
			}
			w.config.loadThen(then) // last: its result comes back to the main goroutine after all of the above
		})
	})
}

// show shows or hides the status bar's button. Main goroutine only.
func (t *trustUI) show(trusted bool) {
	w := t.w
	if trusted {
		w.status.trust.Hide()
	} else {
		w.status.trust.Show()
	}
}

// ask opens the dialog that says what is off in the untrusted
// project and offers Trust. Main goroutine only.
func (t *trustUI) ask() {
	t.showDialog("Trust this project?", "Trust", "", nil)
}

// askToRun asks the person to trust the project before tk, which
// runs its code (task.CheckTrust refused it): Trust and Run trusts it and
// calls run; Not now runs nothing. A window without a trust only says
// why nothing ran. Main goroutine only.
func (t *trustUI) askToRun(tk projconf.Task, args []string, refused error, run func()) {
	w := t.w
	if w.services.Trust == nil {
		w.status.notify(refused.Error())
		return
	}
	why := strings.Join(task.Argv(tk, args), " ") + " " + tk.NeedsTrust + "."
	t.showDialog("Trust this project to run its code?", "Trust and Run", why, run)
}

// showDialog shows what is off in the untrusted project, after why
// when set, with a confirm button that trusts the project and then calls
// then (when set). Main goroutine only.
func (t *trustUI) showDialog(title, confirm, why string, then func()) {
	w := t.w
	conf, _ := w.services.ProjectConfig()
	text := "While " + w.project.Root + " is untrusted:\n\n• " + strings.Join(trust.Off, "\n• ")
	if why != "" {
		text = why + "\n\n" + text
	}
	if s := conf.Withheld.Summary(); s != "" {
		text += "\n\nWithheld from .trestle.json: " + s + "."
	}
	text += "\n\nTrust the project only if you trust whoever wrote it: once trusted, its tests, its git configuration " +
		"(filters, diff drivers) and its .trestle.json tasks and environment run on your machine. " +
		"You can revoke it in Settings."
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	// Trusting runs the project's code: no key press is a default answer.
	// Enter does nothing here (nothing is focused, and a focused button
	// takes only Space), Escape answers Not now (dialogStack); only a
	// click on the confirm button, or Space on it, trusts
	// (TestEnterNeverTrustsTheProject).
	d := dialog.NewCustomConfirm(title, confirm, "Not now", container.NewVScroll(msg), func(ok bool) {
		if ok {
			t.setThen(then)
		}
	}, w.win)
	d.Resize(fyne.NewSize(560, 380))
	w.dialogs.show(d)
}

// set trusts the project or revokes its trust, storing it off the
// main goroutine; the change reaches the window through OnChange. Main
// goroutine only.
func (t *trustUI) set(trusted bool) {
	w := t.w
	tr := w.services.Trust
	w.loading.Go(func() { w.status.report(tr.Set(trusted)) })
}

// setThen trusts the project, as set does, and calls then (when
// set) once the window shows the trusted configuration. Main goroutine only.
func (t *trustUI) setThen(then func()) {
	w := t.w
	if w.services.Trust.Trusted() { // trusted meanwhile (Settings)
		if then != nil {
			then()
		}
		return
	}
	t.afterTrust = then // connect's change handler calls it
	t.set(true)
}
