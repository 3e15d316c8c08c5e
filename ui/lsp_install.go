package ui

import (
	"context"
	"fmt"
	"strings"
	"time"
	"trestle/app/lsp"

	"fyne.io/fyne/v2/dialog"
)

// Installing gopls when it is missing: offered once, into the per-user
// folder, with the installer's output in the Run pane.

// offerInstall asks once whether to install the pinned gopls into the
// per-user folder, and installs it with its output in the Run pane.
func (g *goplsUI) offerInstall(detail string) {
	w := g.w
	if g.offered {
		return
	}
	g.offered = true
	if g.installDir == "" {
		w.status.notify(detail)
		return
	}
	msg := fmt.Sprintf("gopls, the Go language server, is not installed, so there are no type errors while you\n"+
		"type, no go to definition and no completion.\n\nInstall gopls %s into %s now?\n(go install golang.org/x/tools/gopls@%s)",
		lsp.GoplsVersion, g.installDir, lsp.GoplsVersion)
	w.dialogs.show(dialog.NewConfirm("Install gopls?", msg, func(ok bool) {
		if ok {
			g.install()
		}
	}, w.win))
}

// install runs go install of the pinned gopls into installDir, its
// output in the Run pane, and retries gopls when it is in place.
func (g *goplsUI) install() {
	w := g.w
	w.panes.run.clear()
	w.panes.run.append("$ go install golang.org/x/tools/gopls@" + lsp.GoplsVersion)
	w.panes.show(w.panes.runView)
	w.status.gopls.SetText("gopls: installing")
	w.loading.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		err := lsp.Install(ctx, g.installDir, runPaneWriter{w})
		w.onMain(func() {
			if err != nil {
				w.panes.run.append("[" + err.Error() + "]")
				w.status.gopls.SetText("gopls: not installed")
				return
			}
			w.panes.run.append("[gopls installed]")
			g.client.Retry()
		})
	})
}

// runPaneWriter sends an installer's output to the Run pane, a line at a time.
type runPaneWriter struct{ w *Window }

func (r runPaneWriter) Write(b []byte) (int, error) {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	r.w.onMain(func() { r.w.panes.run.append(lines...) })
	return len(b), nil
}
