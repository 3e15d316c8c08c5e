package compiled

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitInputSortsPiecesAndKeepsPositions(t *testing.T) {
	src := "x := 2\nimport \"strings\"\nfunc twice(s string) string { return strings.Repeat(s, 2) }\n" +
		"type (\n\tA int\n\tB string\n)\nconst (\n\tc0 = iota\n\tc1\n)\nfunc (a A) Double() A { return a * 2 }\n" +
		"for i := range 3 { _ = i }; y := twice(\"ab\")\n  y"
	in, err := splitInput(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.imports) != 1 || in.imports[0].path != "strings" || in.imports[0].line != 2 || in.imports[0].col != 8 {
		t.Errorf("imports = %+v", in.imports)
	}
	var keys []string
	for _, d := range in.decls {
		keys = append(keys, strings.Join(d.keys, ","))
	}
	if want := []string{"twice", "A", "B", "c0,c1", "A.Double"}; !slices.Equal(keys, want) {
		t.Errorf("decl keys = %v, want %v", keys, want)
	}
	if in.decls[1].kw != "type " || in.decls[1].src != "A int" || in.decls[1].line != 5 || in.decls[1].col != 2 {
		t.Errorf("a spec out of a type group: %+v", in.decls[1])
	}
	var stmts []string
	for _, st := range in.stmts {
		stmts = append(stmts, st.src)
	}
	if want := []string{"x := 2", "for i := range 3 { _ = i }", `y := twice("ab")`, "y"}; !slices.Equal(stmts, want) {
		t.Errorf("stmts = %q, want %q", stmts, want)
	}
	last := in.stmts[len(in.stmts)-1]
	if last.line != 14 || last.col != 3 {
		t.Errorf("last statement at %d:%d, want 14:3", last.line, last.col)
	}
	if _, ok := in.lastExpr(); !ok {
		t.Error("the last statement is an expression")
	}
	if got := definedNames(in); !slices.Equal(got, []string{"x", "y"}) {
		t.Errorf("defined names = %v", got)
	}
}

func TestSplitInputReportsSyntaxErrorsAtTheInputsPosition(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"statement", "a := 1\nb := (a +\n  ) * 2", "3:3:"},
		{"declaration", "x := 1\nfunc f( { }", "2:"},
		{"brackets", "f(\n", "unbalanced"},
		{"main", "func main() {}", "1:6: func main cannot be declared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := splitInput(tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestDeclSetReplacesRedefinedNames(t *testing.T) {
	first, _ := splitInput("func f() int { return 1 }\nvar v = 1\nconst (\n\ta = iota\n\tb\n)")
	set := declSet{}.with(first).committed(earlierFile(1))
	second, _ := splitInput("func f() int { return 2 }\nconst b = 7")
	next := set.with(second)
	var got []string
	for _, d := range next.decls {
		got = append(got, strings.Join(d.keys, ",")+"@"+d.origin)
	}
	// the const group that declared b goes whole (iota groups are kept whole)
	if want := []string{"v@compiled-input-1", "f@input", "b@input"}; !slices.Equal(got, want) {
		t.Errorf("decls = %v, want %v", got, want)
	}
	if r := replaced(set, second); !slices.Equal(r, []string{"f", "b"}) {
		t.Errorf("replaced = %v", r)
	}
}

func TestGuessPackageName(t *testing.T) {
	for path, want := range map[string]string{
		"strings": "strings", "gopkg.in/yaml.v3": "yaml", "github.com/go-git/go-git/v5": "git",
		"example.com/p/internal/x": "x", "golang.org/x/sys/unix": "unix",
	} {
		if got := guessPackageName(path); got != want {
			t.Errorf("guessPackageName(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestUnsupportedRecognizesInterpreterLimits(t *testing.T) {
	for _, tc := range []struct {
		err  string
		want bool
	}{
		{`1:43: package strings "strings" has no symbol Lines`, true},
		{"1:28: undefined selector: slices.Sorted", true},
		{`1:21: import "iter" error: unable to find source related to: "iter". Either the GOPATH`, true},
		{`import "example.com/nope" error: unable to find source related to: "example.com/nope"`, false},
		{"1:28: undefined: undefinedThing", false},
		{"1:10: undefined selector: p.Missing", false},
		{"panic: boom", false},
	} {
		if got := Unsupported(tc.err); got != tc.want {
			t.Errorf("Unsupported(%q) = %v, want %v", tc.err, got, tc.want)
		}
	}
}

func TestGenerateKeepsUnusedNamesFromFailingTheBuild(t *testing.T) {
	in, err := splitInput("import \"os\"\nimport \"strings\"\nx, y := 1, 2\nstrings.Repeat(\"a\", x)")
	if err != nil {
		t.Fatal(err)
	}
	src := generate(declSet{}.with(in), nil, in, genOptions{})
	for _, want := range []string{
		`/*line input:2:8*/import "strings"`,
		"__trestleShow(/*line input:4:1*/strings.Repeat(\"a\", x))",
		"_ = x; _ = y;",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the program lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, `import "os"`) {
		t.Errorf("the unused import of os is in the program:\n%s", src)
	}
	if all := generate(declSet{}.with(in), nil, in, genOptions{allImports: true}); !strings.Contains(all, `import "os"`) {
		t.Error("allImports keeps every import")
	}
}
