package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/eval"
	"trestle/app/projconf"
	"trestle/app/services"
	"trestle/app/watch"
)

func TestConfigFeedsTheSelectionPickerAndReportsProblems(t *testing.T) {
	w := newTestWindow(t)
	root := w.project.Root
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(root, projconf.FileName), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"selections": {"integration": {"tags": ["integration"]}}}`)
	w.connectServices(services.Services{
		Eval:   eval.NewManager(eval.ManagerOptions{Root: root}),
		Config: func() (projconf.Config, error) { return projconf.Load(root) },
	})
	w.loading.Wait()
	if got := strings.Join(w.status.selection.Options, ","); got != "default,integration" {
		t.Fatalf("picker options %q", got)
	}
	w.status.selection.SetSelected("integration")
	if w.config.selection != "integration" {
		t.Fatalf("picking did not change the selection: %q", w.config.selection)
	}

	write("{\n  \"selections\": {\"x\": 3}\n}\n")
	w.config.sawFiles([]watch.Event{{Path: projconf.FileName, Op: watch.Changed}})
	w.loading.Wait()
	msg := w.status.message.Text
	if !strings.Contains(msg, ".trestle.json:2") || !strings.Contains(msg, "defaults") {
		t.Fatalf("status message %q does not name the file, line and fallback", msg)
	}
	if w.config.selection != "" || w.status.selection.Selected != "default" {
		t.Fatalf("a selection that went away is still active: %q", w.config.selection)
	}
}
