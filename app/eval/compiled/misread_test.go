package compiled

import (
	"strings"
	"testing"

	"trestle/internal/testfix"
)

// TestMisreadInput: what in the input itself the interpreter would get
// wrong, and what it runs right (no compiled run for nothing).
func TestMisreadInput(t *testing.T) {
	s := New(Options{Root: t.TempDir()})
	tests := []struct {
		name, code, why string // why "" means the interpreter may run it
	}{
		{"a plain loop", "sum := 0\nfor i := 0; i < 3; i++ { sum += i }\nsum", ""},
		{"a closure in a loop", "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }", "captures the loop variable i"},
		{"a goroutine over a range", "for _, v := range []int{1} { go func() { println(v) }() }", "captures the loop variable v"},
		{"an address in a range", "var ps []*int\nfor _, v := range []int{1} { ps = append(ps, &v) }", "takes the address of the loop variable v"},
		{"a parameter of the same name (names are not resolved: counted)", "for _, v := range []int{1} { f := func(v int) int { return v }; _ = f }", "captures the loop variable v"},
		{"a struct type", "type T struct{ A int }", "declares the type T"},
		{"a named int", "type Celsius float64", "declares the type Celsius"},
		{"an interface", "type Shape interface{ Area() float64 }", ""},
		{"an alias", "type B = strings.Builder", ""},
		{"a generic func", "func Map[T any](x T) T { return x }", "declares the generic func Map"},
		{"select that defines", "ch := make(chan int, 1)\nch <- 1\nselect {\ncase v := <-ch:\n\t_ = v\n}", ""},
		{"select that assigns", "ch := make(chan int, 1)\nvar v int\nselect {\ncase v = <-ch:\n}", "select case that assigns"},
		{"an exported anonymous struct", "p := struct{ A, B int }{1, 2}\np", ""},
		{"an unexported anonymous struct", "p := struct{ a int }{1}\np", "unexported field a"},
		{"a recovered value kept", "var r any\nfunc() { defer func() { r = recover() }(); panic(1) }()", "uses the value recover() returns"},
		{"a recovered value formatted", "f := func() (err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = fmt.Errorf(\"%v\", r)\n\t\t}\n\t}()\n\treturn nil\n}", "uses the value recover() returns"},
		{"a recovered value returned", "func safe() (r any) { defer func() { r = recover() }(); return }", "uses the value recover() returns"},
		{"recover dropped", "f := func() { defer func() { recover() }(); panic(1) }", ""},
		{"recover compared with nil", "f := func() (ok bool) { defer func() { if r := recover(); r != nil { ok = true } }(); return }", ""},
		{"a deferred argument changed later", "f := func() (r int) {\n\tx := 1\n\tdefer func(v int) { r = v }(x)\n\tx = 5\n\treturn\n}", "defers a call whose argument x may change"},
		{"a deferred call's argument", "f := func() { defer fmt.Println(time.Since(time.Now())) }", "argument time.Since(time.Now())"},
		{"a deferred receiver changed later", "f := func() { b := &strings.Builder{}\n\tdefer b.Reset()\n\tb = nil }", "argument b may change"},
		{"a deferred argument in a loop", "f := func() { n := 0\n\tfor i := 0; i < 3; i++ {\n\t\tn++\n\t\tdefer fmt.Println(n)\n\t} }", "argument n may change"},
		{"a defer after the assignment", "f := func() { var fl *os.File\n\tfl, _ = os.Open(\"x\")\n\tdefer fl.Close() }", ""},
		{"defer Done and constants", "f := func() { defer wg.Done()\n\tdefer fmt.Println(\"done\", 1, name)\n\tdefer func() { println(name) }() }", ""},
		{"recover compared directly", "f := func() (ok bool) { defer func() { ok = recover() == nil }(); return }", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, why := s.Misread(tt.code, "example.com/x", Linked{})
			if ok != (tt.why != "") || !strings.Contains(why, tt.why) {
				t.Fatalf("Misread = %v %q, want %q", ok, why, tt.why)
			}
		})
	}
}

// TestMisreadConstantInitializedVars: an exported var whose initializer
// is constant is a constant to the interpreter when read from outside its
// package (it kept saying 1 after SetRate(3)), so reading one runs
// compiled, from the input or from another interpreted package; a var
// initialized by a call or a composite, or a conversion's look-alike
// (errors.New), stays interpreted, and so does any var of a package
// linked natively.
func TestMisreadConstantInitializedVars(t *testing.T) {
	root := testfix.Project(t, map[string]string{
		"go.mod": "module example.com/cv\n\ngo 1.22\n",
		"conf/conf.go": `package conf

import (
	"errors"
	"time"

	"example.com/cv/kind"
)

const base = 2

var (
	Rate    = 1
	Name    = "n"
	Timeout = 5 * time.Second
	Scaled  = base * 3
	Lvl     = kind.Level(2)
	Made    = kind.New(2)
	Wait    = time.Duration(5)
	Count   int
	List    = []int{1}
	ErrGone = errors.New("gone")
	Copy    = Count
	Now     = time.Now()
)
`,
		"kind/kind.go": "package kind\n\n// Level is a level.\ntype Level int\n\n// New is a level.\nfunc New(n int) Level { return Level(n) }\n",
		"use/use.go":   "package use\n\nimport \"example.com/cv/conf\"\n\n// R is conf's rate.\nfunc R() int { return conf.Rate }\n",
		"err/err.go":   "package err\n\nimport \"example.com/cv/conf\"\n\n// Gone is conf's error.\nfunc Gone() error { return conf.ErrGone }\n",
	})
	s := New(Options{Root: root})
	imp := "import \"example.com/cv/conf\"\n"
	tests := []struct {
		name, code, why string
		native          bool
	}{
		{"an int", imp + "conf.Rate", "reads example.com/cv/conf.Rate", false},
		{"a string set", imp + "conf.Name = \"m\"", "reads example.com/cv/conf.Name", false},
		{"a duration", imp + "conf.Timeout", "conf.Timeout", false},
		{"a constant expression", imp + "conf.Scaled", "conf.Scaled", false},
		{"a conversion to a project type", imp + "conf.Lvl", "conf.Lvl", false},
		{"a project func", imp + "conf.Made", "", false},
		{"a conversion to a standard type", imp + "conf.Wait", "conf.Wait", false},
		{"no initializer", imp + "conf.Count", "", false},
		{"a slice", imp + "conf.List[0]", "", false},
		{"a call of a func", imp + "conf.ErrGone", "", false},
		{"another var", imp + "conf.Copy", "", false},
		{"a call", imp + "conf.Now", "", false},
		{"linked natively", imp + "conf.Rate", "", true},
		{"through a package", "import \"example.com/cv/use\"\nuse.R()", "example.com/cv/use, which reads example.com/cv/conf.Rate", false},
		{"through a package that reads a call's var", "import \"example.com/cv/err\"\nerr.Gone()", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := Linked{Native: func(p string) bool { return tt.native || p == "example.com/cv/kind" }} // kind declares a type
			ok, why := s.Misread(tt.code, "example.com/cv", l)
			if ok != (tt.why != "") || !strings.Contains(why, tt.why) {
				t.Fatalf("Misread = %v %q, want %q", ok, why, tt.why)
			}
		})
	}
}
