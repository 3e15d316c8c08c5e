package task

import "testing"

func TestParseProblem(t *testing.T) {
	const root = "/p"
	tests := []struct {
		name string
		line string
		dir  string
		want Problem
		ok   bool
	}{
		{"build with column", "./calc/calc.go:12:5: undefined: x", "", Problem{"calc/calc.go", 12, 5, "undefined: x"}, true},
		{"vet without column", "calc/calc.go:7: unreachable code", "", Problem{"calc/calc.go", 7, 0, "unreachable code"}, true},
		{"relative to the task dir", "x.go:3:1: bad", "sub", Problem{"sub/x.go", 3, 1, "bad"}, true},
		{"parent of the task dir", "../y.go:1:2: bad", "sub/deep", Problem{"sub/y.go", 1, 2, "bad"}, true},
		{"test log indented", "    calc_test.go:20: got 3, want 4", "", Problem{"calc_test.go", 20, 0, "got 3, want 4"}, true},
		{"vet prefix", "vet: ./main.go:5:2: undefined: y", "", Problem{"main.go", 5, 2, "undefined: y"}, true},
		{"absolute inside", "/p/a/b.go:1:1: m", "", Problem{"a/b.go", 1, 1, "m"}, true},
		{"absolute outside", "/usr/lib/go/src/x.go:1:1: m", "", Problem{"/usr/lib/go/src/x.go", 1, 1, "m"}, true},
		{"go.mod", "go.mod:3: unknown directive: foo", "", Problem{"go.mod", 3, 0, "unknown directive: foo"}, true},
		{"test error on the lines below", "        x_test.go:41: ", "", Problem{"x_test.go", 41, 0, ""}, true},
		{"vet header", "# example.com/demo/calc", "", Problem{}, false},
		{"ok line", "ok  \texample.com/demo/calc\t0.01s", "", Problem{}, false},
		{"log timestamp", "2024/01/02 10:20:30 hello", "", Problem{}, false},
		{"fail line", "--- FAIL: TestAdd (0.00s)", "", Problem{}, false},
		{"panic", "panic: runtime error: index out of range", "", Problem{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseProblem(tt.line, root, tt.dir)
			if ok != tt.ok || got != tt.want {
				t.Fatalf("ParseProblem(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
			}
		})
	}
}
