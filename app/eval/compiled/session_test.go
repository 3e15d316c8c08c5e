package compiled

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// iterFiles is a module that uses what the interpreter cannot run:
// generics, iter.Seq, range over func, in an internal package.
var iterFiles = map[string]string{
	"go.mod":       "module example.com/iterdemo\n\ngo 1.23\n",
	"bar-baz/b.go": "package barbaz\n\n// V is seven.\nfunc V() int { return 7 }\n", // a name unlike its path
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

func writeModule(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func newSession(t *testing.T) (*Session, string) {
	t.Helper()
	root := writeModule(t, iterFiles)
	s := New(Options{Root: root})
	t.Cleanup(s.Close)
	return s, root
}

func run(t *testing.T, s *Session, code string) Result {
	t.Helper()
	res, err := s.Run(context.Background(), code, 20*time.Second)
	if err != nil {
		t.Fatalf("run %q: %v", code, err)
	}
	return res
}

func want(t *testing.T, res Result, value, typ string) {
	t.Helper()
	if res.Err != "" || res.Value != value || res.Type != typ {
		t.Fatalf("got value %q type %q err %q output %q; want %q (%s)", res.Value, res.Type, res.Err, res.Output, value, typ)
	}
}

func TestRunCompiledModernGoAndAccumulatesDeclarations(t *testing.T) {
	s, root := newSession(t)
	res := run(t, s, `import "example.com/iterdemo/internal/seq"
import "fmt"
total := 0
for n := range seq.Count(4) { total += n }
fmt.Println("summed")
total + seq.Sum(seq.Count(3))`)
	want(t, res, "16", "int")
	if res.Output != "summed\n" {
		t.Errorf("output %q", res.Output)
	}
	// declarations carry over; the unused import of the first input does not fail this build
	want(t, run(t, s, "import \"maps\"\nimport \"slices\"\nvar m = map[string]int{\"b\": 2, \"a\": 1}\nfunc keys() []string { return slices.Sorted(maps.Keys(m)) }\nkeys()"), "[a b]", "[]string")
	want(t, run(t, s, "n := 0\nfor l := range strings.Lines(\"x\\ny\\nz\\n\") { n += len(l) }\nlen(keys()) * n"), "12", "int")
	// a package whose name is not its path's last element
	want(t, run(t, s, "import \"example.com/iterdemo/bar-baz\"\nbarbaz.V()"), "7", "int")
	// a redefinition replaces the earlier one
	want(t, run(t, s, "func keys() []string { return []string{\"only\"} }\nkeys()"), "[only]", "[]string")
	if entries, _ := os.ReadDir(root); len(entries) != 3 {
		t.Errorf("the project folder changed: %v", entries)
	}
}

func TestRunCompiledMapsErrorsToTheInput(t *testing.T) {
	s, _ := newSession(t)
	res := run(t, s, "x := 1\n  undefinedThing + x")
	if !strings.HasPrefix(res.Err, "2:3: undefined: undefinedThing") {
		t.Fatalf("err %q, want it at 2:3", res.Err)
	}
	if s.Inputs() != 0 {
		t.Error("an input that did not build must not be kept")
	}
	res = run(t, s, "func f() int {\n\treturn \"s\"\n}")
	if !strings.HasPrefix(res.Err, "2:9: ") {
		t.Fatalf("err %q, want it at 2:9", res.Err)
	}
}

func TestRunCompiledStatementsAndPanics(t *testing.T) {
	s, _ := newSession(t)
	// a last call without a value is a statement; several values are shown together
	res := run(t, s, "import \"os\"\nos.Setenv(\"K\", \"v\")\nfunc nothing() {}\nnothing()")
	if res.Err != "" || res.Value != "" {
		t.Fatalf("a call without results has no value: %+v", res)
	}
	want(t, run(t, s, "import \"strconv\"\nstrconv.Atoi(\"42\")"), "42, <nil>", "(int, <nil>)")
	if res := run(t, s, "os.Exit(3)"); !strings.Contains(res.Err, "exit status 3") {
		t.Fatalf("os.Exit(3): %+v", res)
	}
	res = run(t, s, "a := []int{}\n\n_ = a[3]")
	if !strings.HasPrefix(res.Err, "panic: runtime error: index out of range") || !strings.Contains(res.Err, "input line 3") {
		t.Fatalf("err %q", res.Err)
	}
}

func TestRunCompiledDeadlineAndStop(t *testing.T) {
	s, _ := newSession(t)
	res, err := s.Run(context.Background(), "for {}", 300*time.Millisecond)
	if err != nil || !strings.Contains(res.Err, "deadline") {
		t.Fatalf("res %+v err %v", res, err)
	}
	done := make(chan Result)
	go func() {
		r, _ := s.Run(context.Background(), "import \"fmt\"\nfmt.Println(\"started\")\nfor {}", time.Minute)
		done <- r
	}()
	deadline := time.Now().Add(time.Minute)
	for !s.Stop() { // wait for the run to begin
		if time.Now().After(deadline) {
			t.Fatal("the run never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case r := <-done:
		if !strings.Contains(r.Err, "stopped") {
			t.Fatalf("err %q", r.Err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Stop did not end the run")
	}
}

func TestWantsRoutesWhatTheInterpreterCannotRun(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "func evens(yield func(int) bool) { yield(2) }\nvar base = 10")
	for _, tc := range []struct {
		code string
		want bool
	}{
		{`for l := range strings.Lines("a") { println(l) }`, true},
		{"import \"slices\"\nslices.Sorted(maps.Keys(m))", true},
		{"for i := range 10 { println(i) }", true},
		{"for x := range evens { println(x) }", true},
		{"base + 1", true},
		{"import \"example.com/iterdemo/internal/seq\"\nfor n := range seq.Count(3) { println(n) }", true},
		{"for _, p := range strings.Split(\"a,b\", \",\") { println(p) }", false},
		{"x := 1\nx + 1", false},
		{"import \"example.com/iterdemo/internal/seq\"\nseq.Count", false},
		{"base := 3\nbase * 2", false},                 // the interpreter's own base
		{"type T struct{ base int }\nT{}.base", false}, // a field, not the compiled var
	} {
		if got, why := s.Wants(tc.code, "example.com/iterdemo"); got != tc.want {
			t.Errorf("Wants(%q) = %v (%s), want %v", tc.code, got, why, tc.want)
		}
	}
}
