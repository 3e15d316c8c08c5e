package testfunc

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trestle/internal/testfix"
)

const src = `package calc

import "testing"

func helper() {}

func TestAdd(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("no")
	}
}

func BenchmarkAdd(b *testing.B) {
	for b.Loop() {
	}
}

func FuzzAdd(f *testing.F) {}

func ExampleAdd() {
	// Output:
}

func Testlower(t *testing.T) {}

func TestWrongParam(x int) {}

func (s suite) TestMethod(t *testing.T) {}
`

func TestAt(t *testing.T) {
	tests := []struct {
		name string
		line int
		want string // Name/kind, or "" for none
	}{
		{"helper", 5, ""},
		{"the func line", 7, "TestAdd/test"},
		{"inside", 9, "TestAdd/test"},
		{"the closing brace", 11, "TestAdd/test"},
		{"between", 12, ""},
		{"benchmark", 14, "BenchmarkAdd/benchmark"},
		{"fuzz", 18, "FuzzAdd/fuzz"},
		{"example", 21, "ExampleAdd/example"},
		{"lower case after Test", 24, ""},
		{"wrong parameter", 26, ""},
		{"a method", 28, ""},
		{"the package line", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn, ok := At("calc_test.go", []byte(src), tt.line)
			got := ""
			if ok {
				got = fn.Name + "/" + string(fn.Kind)
			}
			if got != tt.want {
				t.Errorf("At(line %d) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
	if _, ok := At("calc.go", []byte(src), 9); ok {
		t.Error("a non-test file has a test at the cursor")
	}
	broken := strings.Replace(src, "func FuzzAdd(f *testing.F) {}", "func FuzzAdd(f *testing.F) {", 1)
	if fn, ok := At("calc_test.go", []byte(broken), 9); !ok || fn.Name != "TestAdd" {
		t.Errorf("an unsaved file that does not parse to its end: At = %v, %v; want TestAdd", fn, ok)
	}
}

func TestArgs(t *testing.T) {
	if got := Args("calc/calc_test.go", Func{Name: "TestAdd", Kind: Test}); !slices.Equal(got, []string{"-run", "^TestAdd$", "./calc"}) {
		t.Errorf("Args = %q", got)
	}
	if got := Args("x_test.go", Func{Name: "BenchmarkX", Kind: Benchmark}); !slices.Equal(got, []string{"-run", "^$", "-bench", "^BenchmarkX$", "."}) {
		t.Errorf("Args = %q", got)
	}
}

// TestAtOnGOROOT runs At over a real test file nobody here wrote and runs
// go test with the arguments for the function it finds: only that test
// runs.
func TestAtOnGOROOT(t *testing.T) {
	file := filepath.Join(testfix.GOROOT(t), "src", "container", "list", "list_test.go")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Skipf("no GOROOT source here: %v", err)
	}
	lines := strings.Split(string(data), "\n")
	line := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "func TestRemove(") }) + 3
	fn, ok := At(file, data, line)
	if !ok || fn.Name != "TestRemove" {
		t.Fatalf("At(list_test.go:%d) = %v, %v; want TestRemove", line, fn, ok)
	}
	args := Args("container/list/list_test.go", fn)
	cmd := exec.Command("go", append([]string{"test", "-v", "-count=1"}, args...)...)
	cmd.Dir = filepath.Join(testfix.GOROOT(t), "src")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test %q: %v\n%s", args, err, out)
	}
	if runs := strings.Count(string(out), "=== RUN"); !strings.Contains(string(out), "--- PASS: TestRemove") || runs != 1 {
		t.Errorf("go test %q ran %d tests, want just TestRemove:\n%s", args, runs, out)
	}
}

func TestSyntaxError(t *testing.T) {
	if err := SyntaxError("a_test.go", []byte("package a\n")); err != nil {
		t.Fatalf("a file that parses: %v", err)
	}
	err := SyntaxError("a_test.go", []byte("package a\n\nfunc TestA(t *testing.T) {\n\tif {\n}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "a_test.go:4:") {
		t.Fatalf("a broken file: %v", err)
	}
}
