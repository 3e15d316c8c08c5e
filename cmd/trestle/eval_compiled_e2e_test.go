package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// modernFiles is a project that uses what the interpreter cannot run:
// generics, iter.Seq, range over func, in an internal package.
var modernFiles = map[string]string{
	"go.mod": "module example.com/modern\n\ngo 1.23\n",
	"internal/seq/seq.go": `package seq

import "iter"

// Count yields 1..n.
func Count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 1; i <= n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// Sum adds what a sequence yields.
func Sum[T ~int | ~float64](s iter.Seq[T]) T {
	var t T
	for v := range s {
		t += v
	}
	return t
}
`,
}

// TestMCPEvalCompiledModernGo evaluates the fixture through
// `trestle --mcp` with the official Go SDK client: the project's iterator
// summed by range over func and by its generic Sum, slices.Sorted over
// maps.Keys, strings.Lines, declarations carried between calls, errors at
// the input's columns, and the results marked compiled. It logs the first
// (cold main package) and warm latency.
func TestMCPEvalCompiledModernGo(t *testing.T) {
	dir := t.TempDir()
	for name, body := range modernFiles {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Trusted (--trust): in an untrusted project no compiled input may import the project.
	m := clientMode{"headless", []string{"--mcp", "--trust", dir}, []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY="}, dir}
	cs, stderr := goSDKSession(t, m, "")
	eval := func(code string) map[string]any {
		t.Helper()
		res, sc := goSDKCall(t, cs, "trestle_eval", map[string]any{"code": code, "timeout_seconds": 30})
		if sc == nil {
			t.Fatalf("no structured content for %q: %s\nstderr: %s", code, goSDKText(res), stderr.String())
		}
		return sc
	}
	wantValue := func(sc map[string]any, value, typ string) {
		t.Helper()
		if sc["state"] != "done" || sc["value"] != value || sc["type"] != typ || sc["mode"] != "compiled" {
			t.Fatalf("got %v; want %s (%s) compiled", sc, value, typ)
		}
		if w, _ := sc["worker"].(map[string]any); w["kind"] != "compiled" || sc["lost"] != false {
			t.Fatalf("worker %v lost %v; want compiled, not lost", sc["worker"], sc["lost"])
		}
	}
	start := time.Now()
	sc := eval("import \"example.com/modern/internal/seq\"\ntotal := 0\nfor n := range seq.Count(10) { total += n }\ntotal")
	first := time.Since(start)
	wantValue(sc, "55", "int")
	wantValue(eval("seq.Sum(seq.Count(4))"), "10", "int")
	wantValue(eval("import (\n\t\"maps\"\n\t\"slices\"\n)\nvar ages = map[string]int{\"cy\": 3, \"al\": 1, \"bo\": 2}\nslices.Sorted(maps.Keys(ages))"), "[al bo cy]", "[]string")
	wantValue(eval("import \"strings\"\nn := 0\nfor l := range strings.Lines(\"a\\nb\\nc\\n\") { n += len(l) }\nn + len(ages)"), "9", "int")
	start = time.Now()
	wantValue(eval("len(ages)"), "3", "int")
	warm := time.Since(start)
	sc = eval("for range 2 {}\n  undefinedThing + 1")
	if sc["state"] != "problem" || !strings.HasPrefix(sc["message"].(string), "2:3: undefined: undefinedThing") || sc["mode"] != "compiled" {
		t.Fatalf("want the error at the input's 2:3, got %v", sc)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the project folder changed: %v", entries)
	}
	t.Logf("compiled trestle_eval: first %s, warm %s", first.Round(time.Millisecond), warm.Round(time.Millisecond))
}
