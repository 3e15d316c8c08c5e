package ui

import (
	"strings"
	"testing"

	"trestle/app/permission"
)

// TestAskShowsThePackagesItInitialises (issue 20): an evaluation that
// imports project packages says so in the dialog: their init code runs.
func TestAskShowsThePackagesItInitialises(t *testing.T) {
	h := startAsk(t, permission.Request{Client: "c", Session: "conn-1", Kind: "evaluate", Detail: "import \"example.com/m/nat\"\n1",
		Initialises: []string{"example.com/m/nat", "example.com/m/shared"}})
	_, views := h.shown()
	all := strings.Join(views, "\n")
	for _, want := range []string{"initialises example.com/m/nat", "initialises example.com/m/shared"} {
		if !strings.Contains(all, want) {
			t.Errorf("the dialog does not show %q; it shows %q", want, all)
		}
	}
	h.tap("Deny")
}
