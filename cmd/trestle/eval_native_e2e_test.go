package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"trestle/app/eval/evaltest"
)

// The other end-to-end tests evaluate in tiny projects with the
// interpreter alone: a native worker build there would only cost CPU.
// TestEvalNativeThroughMCP turns native workers on for its own server.
func init() { os.Setenv(nativeEvalEnv, "off") }

// nativeProject writes the evaltest fixture (bbolt, fsnotify, x/sys,
// segmentio/asm, a package with assembly, one with unsafe) and a config
// folder whose worker build cache is the one the evaluator tests share, so
// that the cold build happens once per machine.
func nativeProject(t *testing.T) (project, config string) {
	t.Helper()
	project = t.TempDir()
	trestle, _ := filepath.Abs("../..")
	if err := evaltest.Write(project, trestle); err != nil {
		t.Fatal(err)
	}
	config = t.TempDir()
	if err := os.MkdirAll(filepath.Join(config, "cache"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(evaltest.CacheDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(evaltest.CacheDir(), filepath.Join(config, "cache", "eval")); err != nil {
		t.Fatal(err)
	}
	return project, config
}

// evalCall calls trestle_eval and returns the text and whether it failed.
func evalCall(t *testing.T, cs *sdk.ClientSession, code string) (string, map[string]any, bool) {
	t.Helper()
	// Generous: the first import of a project package with assembly builds
	// a worker that links it, which took over a minute with cold caches at load.
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "trestle_eval", Arguments: map[string]any{"code": code, "timeout_seconds": 30}})
	if err != nil {
		t.Fatalf("trestle_eval %q: %v", code, err)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	return goSDKText(res), sc, res.IsError
}

// TestEvalNativeThroughMCP drives `trestle --mcp` and a window (through
// `trestle --mcp-attach`) on a real module with the official Go SDK
// client: once the selection's native worker is built (the interpreter
// serves meanwhile), the project's dependencies are called natively (a
// bbolt round trip, an fsnotify event, the page size through x/sys/unix,
// segmentio/asm's assembly), as are the project's packages with assembly
// (one of them internal, below the module root) and unsafe; the result
// says which worker ran it; a failed import leaves the worker working; an
// error column points at the input; a deadline's result says the state
// was lost and replay brings it back. In the window, the Eval pane shows
// the results.
func TestEvalNativeThroughMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	t.Run("headless", func(t *testing.T) {
		project, config := nativeProject(t)
		// Trusted (--trust): an untrusted project's own packages never run natively.
		m := clientMode{name: "headless", args: []string{"--mcp", "--trust", project},
			env: []string{"TRESTLE_CONFIG_DIR=" + config, "DISPLAY=", nativeEvalEnv + "=on"}}
		cs, stderr := goSDKSession(t, m, "")
		evalNative(t, cs, stderr, false)
	})
	t.Run("window", func(t *testing.T) {
		project, _ := nativeProject(t)
		t.Setenv(nativeEvalEnv, "on")
		w := startWindowArgs(t, project, "--agent-policy", "allow", "--trust")
		// The evaluator tests' shared worker cache, if the window has not made its own yet.
		os.MkdirAll(filepath.Join(w.config, "cache"), 0o755)
		os.Symlink(evaltest.CacheDir(), filepath.Join(w.config, "cache", "eval"))
		cs, stderr := goSDKSession(t, clientMode{name: "attach", args: []string{"--mcp-attach", project}, env: w.env}, "")
		evalNative(t, cs, stderr, true)
	})
}

// evalNative is TestEvalNativeThroughMCP on one connection.
func evalNative(t *testing.T, cs *sdk.ClientSession, stderr *syncBuffer, window bool) {
	probe := "import \"golang.org/x/sys/unix\"\nunix.Getpagesize()"
	want := fmt.Sprintf("= %d (int)", os.Getpagesize())
	deadline := time.Now().Add(10 * time.Minute)
	for {
		text, _, isErr := evalCall(t, cs, probe)
		if !isErr && strings.Contains(text, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("x/sys/unix was never served; last answer %q\nstderr: %s", text, stderr.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
	// The compiled path may have answered the probe (a program built for
	// the one input) before the native worker was ready: wait for the worker.
	var text string
	var sc map[string]any
	for {
		text, sc, _ = evalCall(t, cs, "1")
		if strings.Contains(text, "worker: native go1.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the native worker never answered; last answer %q\nstderr: %s", text, stderr.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
	// The project's own native packages are linked only for an input that
	// imports them (their init must not run on "1"); the dependencies are.
	if !strings.Contains(text, "worker: native go1.") || !strings.Contains(text, "linked natively besides the standard library: ") || strings.Contains(text, evaltest.Module+"/raw") {
		t.Errorf("the text should say which worker ran it and what it links: %q", text)
	}
	w, _ := sc["worker"].(map[string]any)
	pkgs, _ := w["native_packages"].([]any)
	if w["kind"] != "native" || !strings.HasPrefix(fmt.Sprint(w["go"]), "go1.") || !slices.Contains(pkgs, any("go.etcd.io/bbolt")) || sc["lost"] != false {
		t.Fatalf("worker %v lost %v: want the native worker, linking bbolt", sc["worker"], sc["lost"])
	}
	dir := t.TempDir()
	tests := []struct{ name, code, want string }{
		{"bbolt round trip", `import bolt "go.etcd.io/bbolt"
import "fmt"
db, err := bolt.Open(` + fmt.Sprintf("%q", filepath.Join(dir, "e2e.db")) + `, 0o600, nil)
if err != nil { panic(err) }
var got string
err = db.Update(func(tx *bolt.Tx) error {
	b, err := tx.CreateBucketIfNotExists([]byte("b"))
	if err != nil { return err }
	if err := b.Put([]byte("k"), []byte("round trip")); err != nil { return err }
	got = string(b.Get([]byte("k")))
	return nil
})
db.Close()
got + " " + fmt.Sprint(err)`, `= "round trip <nil>" (string)`},
		{"fsnotify event", `import "github.com/fsnotify/fsnotify"
import ("os"; "path/filepath"; "time")
w, err := fsnotify.NewWatcher()
if err != nil { panic(err) }
if err := w.Add(` + fmt.Sprintf("%q", dir) + `); err != nil { panic(err) }
os.WriteFile(` + fmt.Sprintf("%q", filepath.Join(dir, "seen.txt")) + `, []byte("x"), 0o644)
var seen string
select {
case ev := <-w.Events:
	seen = filepath.Base(ev.Name) + " create=" + fmt.Sprint(ev.Has(fsnotify.Create))
case <-time.After(time.Minute):
	seen = "no event"
}
w.Close()
seen`, `= "seen.txt create=true" (string)`},
		{"assembly in a dependency", "import \"github.com/segmentio/asm/ascii\"\nascii.ValidString(\"plain\")", "= true (bool)"},
		{"assembly in the project", "import \"" + evaltest.Module + "/fast\"\nfast.Add(40, 2)", "= 42 (int64)"},
		{"unsafe in the project", "import \"" + evaltest.Module + "/raw\"\nraw.IntSize()", "= 8 (int)"},
		{"assembly in an internal package below the module root", "import \"" + evaltest.Module + "/lib\"\nlib.Sum(40, 2)", "= 42 (int64)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _, isErr := evalCall(t, cs, tt.code)
			if isErr || !strings.Contains(text, tt.want) {
				t.Fatalf("got %q (error %v), want %q", text, isErr, tt.want)
			}
		})
	}
	t.Run("a failed import does not poison", func(t *testing.T) {
		if _, _, isErr := evalCall(t, cs, "before := 41"); isErr {
			t.Fatal("before := 41 failed")
		}
		if text, _, isErr := evalCall(t, cs, "import \""+evaltest.Module+"/broken\""); !isErr {
			t.Fatalf("importing a package that does not compile should fail: %q", text)
		}
		text, _, isErr := evalCall(t, cs, "import \""+evaltest.Module+"/calc\"\ncalc.Add(2, 3) + before")
		if isErr || !strings.Contains(text, "= 46 (int)") {
			t.Fatalf("after a failed import: %q (error %v)", text, isErr)
		}
	})
	t.Run("error column", func(t *testing.T) {
		text, _, isErr := evalCall(t, cs, "undefinedThing + 1")
		if !isErr || !strings.Contains(text, "1:1: undefined: undefinedThing") {
			t.Fatalf("want the error at 1:1, got %q", text)
		}
	})
	t.Run("lost state and replay", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		defer cancel()
		call := func(args map[string]any) (string, map[string]any) {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "trestle_eval", Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := res.StructuredContent.(map[string]any)
			return goSDKText(res), sc
		}
		call(map[string]any{"code": "kept := 41"})
		text, sc := call(map[string]any{"code": "for {}", "timeout_seconds": 1})
		if sc["lost"] != true || !strings.Contains(text, "replay: true") {
			t.Fatalf("a deadline: lost %v, text %q", sc["lost"], text)
		}
		text, sc = call(map[string]any{"replay": true, "code": "kept + 1"})
		if sc["state"] != "done" || !strings.Contains(text, "= 42 (int)") || sc["replayed"] == nil {
			t.Fatalf("replay then kept + 1: %v %q", sc, text)
		}
	})
	if window {
		res, _ := goSDKCall(t, cs, "trestle_output", map[string]any{"pane": "eval"})
		if pane := goSDKText(res); !strings.Contains(pane, "round trip <nil>") || !strings.Contains(pane, "42") {
			t.Errorf("the Eval pane should show the evaluations; it has:\n%s", pane)
		}
	}
}
