package main

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"trestle/internal/testfix"
)

// TestLongClientNamesKeepTheWindowOnScreenE2E is issue 20's long-name
// attack against the real binary under Xvfb (1280×800): two agents attach
// with 412-character client names (one of wide characters), one shows a
// toast of 1,999 characters, the other proposes a change set with a
// 199-character title and a 200-character path, and one asks to evaluate
// (the ask dialog names it). A 412-character name once widened the window
// to 6,303 px (11,610 with two), pushing the dialog's buttons off screen;
// each of these states must leave the window no wider than the screen
// (screenshot longname-ask.png shows the dialog).
func TestLongClientNamesKeepTheWindowOnScreenE2E(t *testing.T) {
	needXdotool(t)
	const screenWidth = 1280 // startXvfb's screen
	project := testProject(t)
	w := startWindow(t, project) // the stored policy: ask
	xdo := w.xdo(t)
	width := func(when string) int {
		geo := xdo("search", "--onlyvisible", "--name", "^Trestle", "getwindowgeometry")
		m := regexp.MustCompile(`Geometry: (\d+)x(\d+)`).FindStringSubmatch(geo)
		if m == nil {
			t.Fatalf("%s: window geometry %q", when, geo)
		}
		n, _ := strconv.Atoi(m[1])
		if n > screenWidth {
			t.Fatalf("%s: the window is %d px wide, wider than the %d px screen", when, n, screenWidth)
		}
		return n
	}
	long := (strings.Repeat("VeryLongClientName-", 22))[:412]
	wide := []rune(strings.Repeat("Wide-ＷＩＤＥ-名前-", 40))
	a := w.attach(t, project, long)
	b := w.attach(t, project, string(wide[:412]))
	testfix.WaitFor(t, 30*time.Second, "both long-named agents listed", func() (string, bool) {
		res, _ := call(t, a, "trestle_workbench", nil)
		text := resultText(res)
		return text, strings.Contains(text, long) && strings.Contains(text, string(wide[:40]))
	}, toolPoll)
	width("with two long-named agents attached")

	if res, sc := call(t, a, "trestle_notify", map[string]any{"message": strings.Repeat("W", 1999)}); res.IsError || sc["state"] != "done" {
		t.Fatalf("notify: %s", resultText(res))
	}
	width("with a 1,999-character toast from a long-named agent")

	res, _ := call(t, b, "trestle_change_set_propose", map[string]any{
		"title":   strings.Repeat("T", 199),
		"changes": []any{map[string]any{"action": "create", "path": strings.Repeat("y", 196) + ".txt", "content": "A\n"}},
	})
	if res.IsError {
		t.Fatalf("propose: %s", resultText(res))
	}
	width("with a long-titled proposal in review")

	// The ask dialog: the eval waits for the person, who never answers;
	// the client gives up when the test ends.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		req := mcp.CallToolRequest{}
		req.Params.Name = "trestle_eval"
		req.Params.Arguments = map[string]any{"code": "1+1"}
		a.CallTool(ctx, req)
	}()
	time.Sleep(2 * time.Second) // let the dialog paint for the screenshot; nothing waits on it
	w.screenshot(t, "longname-ask")
	waitAnswering(t, b) // the window still answers with the dialog up
	t.Logf("the window is %d px wide with the ask dialog up", width("with a long-named agent's ask dialog up"))
	cancel()
	<-done
}
