package main

import (
	"context"
	"fmt"
	"image"
	_ "image/png"
	"os"
	"strings"
	"testing"
	"time"

	"trestle/app/lsp"
	"trestle/internal/testfix"
)

// needGoplsAndXdotool skips without gopls or xdotool, except under CI,
// where scripts/deps.sh installs both.
func needGoplsAndXdotool(t *testing.T) {
	t.Helper()
	_, err := lsp.Find(context.Background(), "")
	testfix.Need(t, "gopls", err)
	needXdotool(t)
}

// redPixels counts the strongly red pixels of a screenshot: the theme's
// error colour, which only a diagnostic's squiggle and gutter mark use in
// an editor showing plain Go.
func redPixels(t *testing.T, path string) int {
	t.Helper()
	img := loadImage(t, path)
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r>>8 > 200 && g>>8 < 110 && bl>>8 < 110 {
				n++
			}
		}
	}
	return n
}

// TestGoplsInTheWindow types a type error into the real window as a person
// would (xdotool under Xvfb): gopls's diagnostic reaches
// trestle_diagnostics, labelled gopls, while the file on disk is
// untouched, and the editor draws it in the error colour.
func TestGoplsInTheWindow(t *testing.T) {
	needGoplsAndXdotool(t)
	project := testProject(t)
	w := startWindow(t, project)
	c := w.attach(t, project, "e2e-gopls")
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "main.go", "line": 6}); res.IsError {
		t.Fatalf("trestle_open: %s", resultText(res))
	}
	time.Sleep(500 * time.Millisecond) // let the frame paint
	before := redPixels(t, w.screenshot(t, "gopls-before"))

	xdo := w.xdo(t)
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")
	xdo("key", "End")
	xdo("type", "--delay", "30", " + undefinedVar")

	testfix.WaitFor(t, 2*time.Minute, "a live diagnostic for the typed error", func() (string, bool) {
		res, sc := call(t, c, "trestle_diagnostics", map[string]any{"path": "main.go"})
		live, _ := sc["live"].([]any)
		if len(live) > 0 {
			p := live[0].(map[string]any)
			if p["source"] != "gopls" || p["line"] != float64(6) || !strings.Contains(resultText(res), "undefinedVar") {
				t.Fatalf("live diagnostics: %s", resultText(res))
			}
		}
		return resultText(res), len(live) > 0
	}, testfix.Every(200*time.Millisecond))
	if b, _ := os.ReadFile(project + "/main.go"); strings.Contains(string(b), "undefinedVar") {
		t.Fatal("the typed text reached the disk")
	}
	testfix.WaitFor(t, 30*time.Second, fmt.Sprintf("the error colour for the diagnostic in the editor (%d red pixels before); red pixels", before), func() (int, bool) {
		after := redPixels(t, w.screenshot(t, "gopls-squiggle"))
		return after, after > before+20
	}, testfix.Every(300*time.Millisecond))

	// Hover: the pointer resting on the squiggle shows the message and gopls's hover.
	squiggle := w.screenshot(t, "gopls-before-hover")
	xdo("mousemove", "680", "163")
	waitChanged(t, w, squiggle, "gopls-hover", image.Rect(320, 172, 1240, 480), "hover box under the pointer on the squiggle")
	xdo("mousemove", "100", "400")

	// Completion: "fmt." opens the list under the caret; Enter takes the first.
	xdo("key", "Return")
	xdo("type", "--delay", "30", "fmt")
	time.Sleep(300 * time.Millisecond) // let the frame paint
	base := w.screenshot(t, "gopls-before-completion")
	xdo("type", "--delay", "30", ".Pr")
	waitChanged(t, w, base, "gopls-completion", image.Rect(320, 200, 1240, 480), "completion list under the caret after typing fmt.Pr")
	xdo("key", "Return")
	waitRead(t, c, "main.go", 7, "completion Enter accepted", func(line string) bool {
		return strings.HasPrefix(strings.TrimSpace(line), "fmt.Print") && strings.TrimSpace(line) != "fmt.Pr"
	})

	res, _ := call(t, c, "trestle_definition", map[string]any{"path": "main.go", "symbol": "Println"})
	if defs := goplsLocs(resultText(res)); res.IsError || len(defs) != 1 || !strings.Contains(defs[0].rest, "func Println(") {
		t.Fatalf("trestle_definition of Println: %s", resultText(res))
	}
}

// changedPixels counts the pixels inside r that differ between two screenshots.
func changedPixels(t *testing.T, a, b string, r image.Rectangle) int {
	t.Helper()
	ia, ib := loadImage(t, a), loadImage(t, b)
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if ia.At(x, y) != ib.At(x, y) {
				n++
			}
		}
	}
	return n
}
