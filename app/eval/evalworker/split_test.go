package evalworker

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestPlanInput(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		imports  int
		groups   int
		lastExpr bool
		whole    bool
	}{
		{"expression", "1+1", 0, 1, true, false},
		{"statement", "x := 1", 0, 1, false, false},
		{"import then call", "import \"fmt\"\nfmt.Sprint(1)", 1, 1, true, false},
		{"import in the middle", "x := 1\nimport \"fmt\"\nfmt.Sprint(x)", 1, 1, true, false},
		{"func decl between statements", "x := 1\nfunc f() int { return x }\nf()", 0, 3, true, false},
		{"method decl", "type T int\nfunc (t T) M() int { return 1 }\nT(1).M()", 0, 2, true, false},
		{"func literal is a statement", "func() { println(1) }()", 0, 1, true, false},
		{"var then value", "var z = []int{1}\nz", 0, 2, true, false},
		{"ends in an import", "x := 1\nimport \"os\"", 1, 1, false, false},
		{"package clause passes through", "package main\nfunc main() {}", 0, 0, false, true},
		{"unbalanced passes through", "func f() {", 0, 0, false, true},
		{"semicolons", "a := 1; b := 2; a + b", 0, 1, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := planInput(tt.src)
			if p.whole != tt.whole || len(p.imports) != tt.imports || len(p.groups) != tt.groups || p.lastExpr != tt.lastExpr {
				t.Fatalf("plan %+v; want whole=%v imports=%d groups=%d lastExpr=%v", p, tt.whole, tt.imports, tt.groups, tt.lastExpr)
			}
		})
	}
}

func TestPlanKeepsLineNumbers(t *testing.T) {
	p := planInput("import \"fmt\"\nx := 1\nfunc f() {}\nfmt.Sprint(x)")
	for _, g := range p.groups {
		if strings.TrimLeft(g.src, "\n ") == "" {
			t.Fatalf("empty group %q", g.src)
		}
	}
	if got := strings.Count(p.groups[2].src, "\n"); got != 3 {
		t.Fatalf("the last group should start on line 4, it has %d newlines before it: %q", got, p.groups[2].src)
	}
}

func TestParseImports(t *testing.T) {
	specs, err := parseImports([]string{"import \"fmt\"", "import (\n\tstr \"strings\"\n\t_ \"os\"\n)"})
	if err != nil {
		t.Fatal(err)
	}
	want := []importSpec{{"", "fmt"}, {"str", "strings"}, {"_", "os"}}
	if !reflect.DeepEqual(specs, want) {
		t.Fatalf("got %v, want %v", specs, want)
	}
}

func TestPlanSaysWhetherTheInputDefinesState(t *testing.T) {
	tests := []struct {
		name, src string
		defines   bool
	}{
		{"expression", "1+1", false},
		{"call", "fmt.Println(1)", true}, // it may change what it is called on
		{"a field", "a.Balance", false},
		{"define", "x := 1", true},
		{"assign", "x = 2", true},
		{"increment", "x++", true},
		{"var statement", "var y int", true},
		{"func declaration", "func f() {}", true},
		{"type declaration", "type T int", true},
		{"import", "import \"fmt\"", true},
		{"for loop", "for i := 0; i < 3; i++ {}", true}, // its body may assign
		{"receive", "<-ch", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := planInput(tt.src).defines; got != tt.defines {
				t.Fatalf("defines = %v, want %v", got, tt.defines)
			}
		})
	}
}

func TestInputPositionsMoveLineOneBack(t *testing.T) {
	tests := []struct {
		name string
		msg  string
		kind chunkKind
		want string
	}{
		{"statement", "1:28: undefined: x", kindStmt, "1:1: undefined: x"},
		{"file name", "_.go:1:30: undefined: x", kindStmt, "_.go:1:3: undefined: x"},
		{"declaration", "1:22: undefined: x", kindDecl, "1:9: undefined: x"},
		{"later line untouched", "2:5: undefined: x", kindStmt, "2:5: undefined: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := inputPositions(errors.New(tt.msg), tt.kind, 0).Error(); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}
