package editor

import (
	"testing"

	"fyne.io/fyne/v2"

	"trestle/app/textbuf"
)

func TestCodeAround(t *testing.T) {
	file := "package main\n\nimport \"fmt\"\n\n// add adds.\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nvar x = 1\n"
	scratch := "1+2\nfunc sq(n int) int {\n\treturn n * n\n}\nsq(3)\n"
	broken := "package p\n\nfunc ok() {}\n\nfunc broken( {\n"
	tests := []struct {
		name string
		text string
		line int // 0-based
		want string
	}{
		{"function body", file, 6, "func add(a, b int) int {\n\treturn a + b\n}"},
		{"function header", file, 5, "func add(a, b int) int {\n\treturn a + b\n}"},
		{"import", file, 2, "import \"fmt\""},
		{"var", file, 9, "var x = 1"},
		{"blank line", file, 3, ""},
		{"package clause", file, 0, "package main"},
		{"scratch expression", scratch, 0, "1+2"},
		{"scratch function", scratch, 2, "func sq(n int) int {\n\treturn n * n\n}"},
		{"scratch call", scratch, 4, "sq(3)"},
		{"before a parse error", broken, 2, "func ok() {}"},
		{"at a parse error", broken, 4, "func broken( {"},
		{"past the end", file, 99, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := codeAround(tt.text, tt.line); got != tt.want {
				t.Errorf("codeAround(line %d) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}

func TestEditorCtrlEnterEvaluates(t *testing.T) {
	e := newTestEditor(t, "x := 2\nx * 3\n", true)
	var got []string
	e.OnEval = func(code string) { got = append(got, code) }
	e.moveTo(textbuf.Pos{Line: 1, Col: 2}, false)
	ctrl(e, fyne.KeyReturn, false)
	e.SelectRange(textbuf.Range{Start: textbuf.Pos{}, End: textbuf.Pos{Line: 0, Col: 1}})
	ctrl(e, fyne.KeyEnter, false)
	e.moveTo(textbuf.Pos{Line: 2}, false) // the empty last line: nothing to evaluate
	ctrl(e, fyne.KeyReturn, false)
	want := []string{"x * 3", "x"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("evaluated %q, want %q", got, want)
	}
	if e.buf.Text() != "x := 2\nx * 3\n" {
		t.Errorf("Ctrl+Enter changed the text: %q", e.buf.Text())
	}
}
