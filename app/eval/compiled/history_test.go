package compiled

import (
	"strings"
	"testing"
)

// TestCompiledInputsSeeEarlierState: a variable a compiled input's
// statements defined (x := ...) and changed is there for a later compiled
// input, as is a variable an interpreted input defined: the inputs that
// define or change the names used run again first, their output hidden,
// and the note says which ran again.
func TestCompiledInputsSeeEarlierState(t *testing.T) {
	s, _ := newSession(t)
	want(t, run(t, s, "import \"example.com/iterdemo/internal/seq\"\nparts := []int{}\nfor v := range seq.Count(2) { parts = append(parts, v) }\nfmt.Println(\"made\")\nlen(parts)"), "2", "int")
	s.NoteInterpreted("extra := 10", false) // the interpreter defined extra
	s.NoteInterpreted("unrelated := 1\nfmt.Println(unrelated)", false)
	res := run(t, s, "parts = append(parts, extra)\nfmt.Println(\"appended\")")
	if res.Err != "" || res.Output != "appended\n" {
		t.Fatalf("append: %+v", res)
	}
	if ok, why := s.Wants("parts", ""); !ok || !strings.Contains(why, "parts") {
		t.Fatalf("an input using a compiled input's variable must run compiled: %v %q", ok, why)
	}
	res = run(t, s, "fmt.Sprint(parts)")
	want(t, res, `"[1 2 10]"`, "string")
	if res.Output != "" {
		t.Errorf("the output of the inputs that ran again is shown: %q", res.Output)
	}
	notes := strings.Join(res.Notes, "\n")
	if !strings.Contains(notes, "ran 3 earlier input(s) again first") || strings.Contains(notes, "unrelated") {
		t.Errorf("notes %q", notes)
	}
	// a panic while an earlier input runs again says which one
	run(t, s, "boom := 0")
	s.NoteInterpreted("boom = 1", false)
	s.NoteInterpreted("if boom == 1 { panic(\"again\") }", false)
	res = run(t, s, "boom + 1")
	if !strings.Contains(res.Err, "panic: again") || !strings.Contains(res.Err, "while earlier input") {
		t.Errorf("err %q", res.Err)
	}
}

// TestCompiledInputRedefinesWithoutReplay: an input that defines a name
// again before using it does not run the input that defined it first
// (its side effects would happen again for nothing), and a name defined
// again with another type is the new one.
func TestCompiledInputRedefinesWithoutReplay(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "for range 1 {}\nv := 1\nfmt.Println(\"first\")")
	res := run(t, s, "v := \"s\"\nfor range 1 {}\nv + \"!\"")
	want(t, res, `"s!"`, "string")
	if len(res.Notes) > 0 && strings.Contains(strings.Join(res.Notes, "\n"), "again first") {
		t.Errorf("notes %v", res.Notes)
	}
	res = run(t, s, "for range 1 {}\nw := v + \"?\"\nw")
	want(t, res, `"s?"`, "string")
}

// TestCompiledPanicShowsPackageFrames: a panic inside a package the
// input calls shows that package's frames, as go run does, without the
// runtime's and the evaluator's; a panic of the input's own shows none.
func TestCompiledPanicShowsPackageFrames(t *testing.T) {
	root := writeModule(t, map[string]string{
		"go.mod":       "module example.com/boom\n\ngo 1.23\n",
		"boom/boom.go": "package boom\n\n// At indexes an empty slice.\nfunc At(n int) int {\n\tvar a []int\n\treturn a[n]\n}\n",
	})
	s := New(Options{Root: root})
	t.Cleanup(s.Close)
	res := run(t, s, "import \"example.com/boom/boom\"\n\nboom.At(3)")
	for _, want := range []string{"panic: runtime error: index out of range [3] with length 0 (at input line 3)", "goroutine 1 [running]:\nexample.com/boom/boom.At(...)\n\t" + root, "boom.go:6\nmain.main(...)\n\tinput:3"} {
		if !strings.Contains(res.Err, want) {
			t.Errorf("err %q lacks %q", res.Err, want)
		}
	}
	if strings.Contains(res.Err, "runtime.") || strings.Contains(res.Err, "__trestle") {
		t.Errorf("err %q shows the runtime's or the evaluator's frames", res.Err)
	}
	if res := run(t, s, "panic(\"mine\")"); res.Err != "panic: mine (at input line 1)" {
		t.Errorf("err %q", res.Err)
	}
}

// TestLookingIsNotReplayed: an input that only computes a value (no
// call, no receive) changes nothing, so it is never run again.
func TestLookingIsNotReplayed(t *testing.T) {
	s, _ := newSession(t)
	s.NoteInterpreted("k := 2", false)
	s.NoteInterpreted("k * 3", true)
	s.NoteInterpreted("len(fmt.Sprint(k))", true)
	res := run(t, s, "for range 1 {}\nk + 1")
	want(t, res, "3", "int")
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "ran 2 earlier input(s) again first") || !strings.Contains(notes, "len(fmt.Sprint(k))") {
		t.Errorf("notes %q", notes)
	}
}

// TestDeclarationCannotSeeReplayedVariables: a func declaration that uses
// a variable an earlier input's statements defined cannot see it (the
// variable lives in main); the answer says so and what to do.
func TestDeclarationCannotSeeReplayedVariables(t *testing.T) {
	s, _ := newSession(t)
	run(t, s, "for range 1 {}\nlimit := 3")
	res := run(t, s, "func over(n int) bool { return n > limit }\nover(5)")
	if !strings.Contains(res.Err, "undefined: limit") || !strings.Contains(strings.Join(res.Notes, "\n"), "limit is a variable an earlier input's statements defined") {
		t.Fatalf("err %q notes %q", res.Err, res.Notes)
	}
}
