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
