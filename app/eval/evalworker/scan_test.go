package evalworker

import (
	"strings"
	"testing"
)

func TestScanInput(t *testing.T) {
	src := "import \"fmt\"\nfunc f() {}\nfunc (s S) M() {}\nfunc() { fmt.Println(1) }()\nx := []int{1,\n2}\ntype T int; var v = 3"
	got, err := ScanInput(src)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []PieceKind
	var texts []string
	for _, p := range got {
		kinds = append(kinds, p.Kind)
		texts = append(texts, src[p.Start:p.End])
	}
	want := []PieceKind{PieceImport, PieceDecl, PieceDecl, PieceStmt, PieceStmt, PieceDecl, PieceDecl}
	if len(kinds) != len(want) {
		t.Fatalf("pieces %q", texts)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("piece %d %q is %v, want %v", i, texts[i], kinds[i], want[i])
		}
	}
	if got[4].Line != 5 || got[4].Col != 1 || texts[4] != "x := []int{1,\n2}" {
		t.Errorf("the multi-line piece: %q at %d:%d", texts[4], got[4].Line, got[4].Col)
	}
	// the semicolons of a for, if or switch header do not end a piece
	header := "for i := 0; i < 3; i++ {\n}\nif v := 1; v > 0 {\n} else if w := 2; w > v {\n}\nswitch x := 3; x {\n}\ny := 1; z := 2"
	ps, err := ScanInput(header)
	if err != nil || len(ps) != 5 {
		t.Fatalf("ScanInput(%q) = %v pieces, %v; want for, if, switch, y and z", header, len(ps), err)
	}
	for _, bad := range []struct{ src, want string }{
		{"package main\nx := 1", "1:1: a package clause"},
		{"f(1,\n2", "unbalanced brackets"},
		{"x := 'ab", "1:6: rune literal not terminated"}, // a scan error names its place
	} {
		if _, err := ScanInput(bad.src); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ScanInput(%q) = %v, want an error with %q", bad.src, err, bad.want)
		}
	}
}
