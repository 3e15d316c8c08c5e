package compiled

import (
	"strings"
	"testing"
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
