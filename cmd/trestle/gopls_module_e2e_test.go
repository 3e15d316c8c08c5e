package main

import (
	"context"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"trestle/app/lsp"
	"trestle/internal/testfix"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Issue 14's "done means" on a real module, go.etcd.io/bbolt from the
// module cache, in the real window under Xvfb: an agent attached renames a
// function through a change set and finds references; a person typing
// sees a type error appear, hovers it, jumps to a definition with F12 and
// completes a method.

// offline makes the window's go commands (and gopls's) use the module
// cache only; Trestle itself is built first, without it.
func offline(tb testing.TB) {
	trestleBin(tb)
	tb.Setenv("GOFLAGS", "-mod=mod")
	tb.Setenv("GOPROXY", "off")
}

// callWait is call with a longer bound, for gopls's first answer on a
// big module.
func callWait(tb testing.TB, c *client.Client, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	return res, sc
}

// lineOf is the 1-based line of the first line of file containing s.
func lineOf(t *testing.T, file, s string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line with %q", file, s)
	return 0
}

// squiggleAt is a point on the text above the widest red run of a
// screenshot (the squiggle; the gutter mark is a small dot).
func squiggleAt(t *testing.T, path string) (x, y int, ok bool) {
	t.Helper()
	img := loadImage(t, path)
	b := img.Bounds()
	best, bestY, bestXs := 0, 0, []int(nil)
	for yy := b.Min.Y; yy < b.Max.Y; yy++ {
		var xs []int
		for xx := b.Min.X; xx < b.Max.X; xx++ {
			r, g, bl, _ := img.At(xx, yy).RGBA()
			if r>>8 > 200 && g>>8 < 110 && bl>>8 < 110 {
				xs = append(xs, xx)
			}
		}
		if len(xs) > best {
			best, bestY, bestXs = len(xs), yy, xs
		}
	}
	if best < 15 {
		return 0, 0, false
	}
	sort.Ints(bestXs)
	return bestXs[len(bestXs)/2], bestY - 7, true
}

// TestGoplsOnBbolt: issue 14's "done means" on go.etcd.io/bbolt.
func TestGoplsOnBbolt(t *testing.T) {
	needGoplsAndXdotool(t)
	offline(t)
	project := testfix.CopyBbolt(t)
	w := startWindow(t, project)
	c := w.attach(t, project, "e2e-bbolt")

	// The agent: references without text search, then a rename through a change set.
	res, _ := callWait(t, c, "trestle_references", map[string]any{"path": "tx.go", "symbol": "(*Tx).Commit"})
	files := map[string]bool{}
	for _, r := range goplsLocs(resultText(res)) {
		files[r.path] = true
	}
	if res.IsError || !files["db.go"] || !files["compact.go"] {
		t.Fatalf("trestle_references of (*Tx).Commit: %s", resultText(res))
	}
	res, sc := callWait(t, c, "trestle_rename", map[string]any{"path": "bucket.go", "symbol": "newBucket", "new_name": "makeBucket"})
	if res.IsError {
		t.Fatalf("trestle_rename: %s", resultText(res))
	}
	id := sc["id"].(string)
	if b, _ := os.ReadFile(filepath.Join(project, "tx.go")); !strings.Contains(string(b), "newBucket(tx)") {
		t.Fatal("trestle_rename wrote tx.go before the person applied it")
	}
	applyInWindow(t, c, id)
	if res, sc := call(t, c, "trestle_change_set", map[string]any{"id": id, "wait_seconds": 15}); res.IsError || sc["change_set_state"] != "applied" {
		t.Fatalf("the rename's change set after Apply: %s", resultText(res))
	}
	for _, f := range []string{"bucket.go", "tx.go"} {
		if b, _ := os.ReadFile(filepath.Join(project, f)); strings.Contains(string(b), "newBucket") || !strings.Contains(string(b), "makeBucket(") {
			t.Fatalf("%s after the applied rename still says newBucket", f)
		}
	}
	build := exec.Command("go", "build", "./...")
	build.Dir = project
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("bbolt after the rename does not build: %v\n%s", err, out)
	}

	// The person: a type error while typing, its hover, F12, a completion.
	line := lineOf(t, filepath.Join(project, "db.go"), "t, err := db.Begin(true)")
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "db.go", "line": line}); res.IsError {
		t.Fatalf("trestle_open: %s", resultText(res))
	}
	time.Sleep(500 * time.Millisecond) // let the frame paint
	before := redPixels(t, w.screenshot(t, "bbolt-before"))
	xdo := w.xdo(t)
	xdo("search", "--sync", "--onlyvisible", "--name", "^Trestle", "windowfocus", "--sync")
	xdo("key", "End", "Return")
	xdo("type", "--delay", "30", `var _ int = "not an int"`)
	xdo("key", "Return")
	xdo("type", "--delay", "30", "_ = t.Commit")
	waitLive(t, c, "db.go", line+1, "cannot use")
	var shot string
	var hx, hy int
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		shot = w.screenshot(t, "bbolt-squiggle")
		var ok bool
		if hx, hy, ok = squiggleAt(t, shot); ok && redPixels(t, shot) > before+20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no squiggle drawn for the type error (%d red pixels, %d before)", redPixels(t, shot), before)
		}
	}
	xdo("mousemove", strconv.Itoa(hx), strconv.Itoa(hy))
	waitChanged(t, w, shot, "bbolt-hover", image.Rect(hx-400, hy+4, hx+500, hy+300), "a hover box on the squiggle")
	xdo("mousemove", "100", "600")

	// F12 on Commit (the caret is at the end of "_ = t.Commit") opens tx.go at its declaration.
	xdo("key", "Left", "Left", "F12")
	decl := lineOf(t, filepath.Join(project, "tx.go"), "func (tx *Tx) Commit() (err error)")
	testfix.WaitFor(t, 30*time.Second, fmt.Sprintf("F12 on t.Commit opening tx.go:%d", decl), func() (string, bool) {
		_, sc := call(t, c, "trestle_workbench", nil)
		sel, _ := sc["selection"].(map[string]any)
		return fmt.Sprintf("active %v, selection %v", sc["active"], sel), sc["active"] == "tx.go" && sel != nil && sel["start_line"] == float64(decl)
	}, toolPoll)
	w.screenshot(t, "bbolt-definition")

	// Back in db.go, "t.Rollb" offers the methods Rollback and rollback; Enter takes the first.
	if res, _ := call(t, c, "trestle_open", map[string]any{"path": "db.go", "line": line + 2}); res.IsError {
		t.Fatalf("trestle_open: %s", resultText(res))
	}
	xdo("key", "End", "Return")
	xdo("type", "--delay", "30", "t")
	time.Sleep(300 * time.Millisecond)
	base := w.screenshot(t, "bbolt-before-completion")
	xdo("type", "--delay", "30", ".Rollb")
	waitChanged(t, w, base, "bbolt-completion", image.Rect(200, 100, 1240, 700), "a completion list after t.Rollb")
	xdo("key", "Return")
	waitRead(t, c, "db.go", line+3, "method that Enter accepted", func(s string) bool {
		got := strings.TrimSpace(s)
		return got == "t.Rollback" || got == "t.rollback"
	})
	if b, _ := os.ReadFile(filepath.Join(project, "db.go")); strings.Contains(string(b), "not an int") {
		t.Fatal("the typed text reached the disk")
	}
}

// waitLive waits for a live gopls diagnostic of path at line mentioning want.
func waitLive(t *testing.T, c *client.Client, path string, line int, want string) {
	t.Helper()
	testfix.WaitFor(t, 2*time.Minute, fmt.Sprintf("a live diagnostic %q at %s:%d", want, path, line), func() (string, bool) {
		res, sc := call(t, c, "trestle_diagnostics", map[string]any{"path": path})
		live, _ := sc["live"].([]any)
		for _, d := range live {
			p := d.(map[string]any)
			if p["source"] == "gopls" && p["line"] == float64(line) && strings.Contains(fmt.Sprint(p["message"]), want) {
				return "", true
			}
		}
		return resultText(res), false
	}, toolPoll)
}

// waitChanged waits until a screenshot differs from base in r by more
// than a box's worth of pixels.
func waitChanged(t *testing.T, w *window, base, name string, r image.Rectangle, what string) {
	t.Helper()
	testfix.WaitFor(t, 30*time.Second, fmt.Sprintf("%s (screenshot %s)", what, name), func() (string, bool) {
		n := changedPixels(t, base, w.screenshot(t, name), r.Intersect(image.Rect(0, 0, 1280, 800)))
		return fmt.Sprintf("%d pixels changed, want more than 2000", n), n > 2000
	}, testfix.Every(300*time.Millisecond))
}

// goplsChild is the pid of the gopls the process pid started.
func goplsChild(tb testing.TB, pid int) int {
	tb.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		dirs, _ := os.ReadDir("/proc")
		for _, d := range dirs {
			stat, err := os.ReadFile("/proc/" + d.Name() + "/stat")
			s := string(stat)
			if err != nil || !strings.Contains(s, "(gopls)") {
				continue
			}
			f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
			if len(f) > 1 && f[1] == strconv.Itoa(pid) {
				child, _ := strconv.Atoi(d.Name())
				return child
			}
		}
	}
	tb.Fatalf("process %d started no gopls", pid)
	return 0
}

// BenchmarkGoplsRSS is the resident memory of the window and of its gopls
// once gopls has loaded the project and settled, for the e2e fixture,
// bbolt, fsnotify and GOROOT/src/net/http (which gopls loads as part of
// the standard library's module).
func BenchmarkGoplsRSS(b *testing.B) {
	if _, err := lsp.Find(context.Background(), ""); err != nil {
		b.Skip(err)
	}
	cases := []struct {
		name, file string
		dir        func(testing.TB) string
	}{
		{"fixture", "main.go", testProject},
		{"bbolt", "db.go", testfix.CopyBbolt},
		{"fsnotify", "fsnotify.go", func(tb testing.TB) string {
			return testfix.CopyLibrary(tb, "github.com/fsnotify/fsnotify", ".", "internal")
		}},
		{"net-http", "server.go", func(tb testing.TB) string { return filepath.Join(testfix.GOROOT(tb), "src", "net", "http") }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			if tc.name != "net-http" {
				offline(b)
			}
			dir := tc.dir(b)
			w := startWindow(b, dir)
			c := w.attach(b, dir, "rss")
			var window, gopls float64
			for b.Loop() {
				if res, _ := callNotBusy(b, c, "trestle_open", map[string]any{"path": tc.file}); res.IsError { // a window just started may answer busy
					b.Fatalf("trestle_open: %s", resultText(res))
				}
				if res, _ := callWait(b, c, "trestle_symbols", map[string]any{"query": "Close"}); res.IsError {
					b.Fatalf("trestle_symbols: %s", resultText(res))
				}
				pid := goplsChild(b, w.cmd.Process.Pid)
				time.Sleep(5 * time.Second) // gopls diagnoses the workspace after loading it
				window += vmRSS(b, w.cmd.Process.Pid)
				gopls += vmRSS(b, pid)
			}
			n := float64(b.N)
			b.ReportMetric(window/n, "window-MiB")
			b.ReportMetric(gopls/n, "gopls-MiB")
		})
	}
}
