package evalworker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"
)

// panicCase is an input that ends in a panic nothing recovers: body runs
// as the person's input in the worker and as a function's body under go
// run.
type panicCase struct{ name, body string }

// panicReport is what a program printed before its unrecovered panic
// (stdout and stderr, in order) and the panic's report up to the goroutine
// list ("panic: x", "panic: main.myType(3)").
type panicReport struct{ Output, Panic string }

// comparedImports are the packages every comparison imports; bodies may
// use them.
var comparedImports = []string{"errors", "fmt", "go/token", "html/template", "image", "log", "os", "reflect", "strconv", "strings", "time"}

// goRunImports is the comparison program's import declaration, with a use
// of each package.
func goRunImports() string {
	var b strings.Builder
	b.WriteString("import (\n")
	for _, p := range comparedImports {
		fmt.Fprintf(&b, "\t%q\n", p)
	}
	b.WriteString(")\n\nvar (\n")
	for _, p := range comparedImports {
		switch p {
		case "go/token":
			b.WriteString("\t_ = token.NoPos\n")
		case "html/template":
			b.WriteString("\t_ = template.HTMLEscapeString\n")
		case "image":
			b.WriteString("\t_ = image.Pt\n")
		default:
			fmt.Fprintf(&b, "\t_ = %s.%s\n", p, map[string]string{"errors": "New", "fmt": "Sprint", "log": "Print", "os": "Exit",
				"reflect": "ValueOf", "strconv": "Itoa", "strings": "Repeat", "time": "Now"}[p])
		}
	}
	b.WriteString(")\n")
	return b.String()
}

// goRunPanics builds one program with decls at the package level and a
// function per case, runs each case in a process of its own, and returns
// what each printed before its panic and the panic's report, as go run
// shows them.
func goRunPanics(t *testing.T, decls string, cases []panicCase) []panicReport {
	t.Helper()
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("package main\n\n" + goRunImports() + "\n" + decls + "\n")
	src.WriteString("func main() {\n\ti, _ := strconv.Atoi(os.Args[1])\n\tswitch i {\n")
	for i := range cases {
		fmt.Fprintf(&src, "\tcase %d:\n\t\tcase%d()\n", i, i)
	}
	src.WriteString("\t}\n}\n")
	for i, c := range cases {
		fmt.Fprintf(&src, "\nfunc case%d() {\n%s\n}\n", i, c.body)
	}
	files := map[string]string{"go.mod": "module gorunpanic\n\ngo 1.22\n", "main.go": src.String()}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "gorunpanic")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s\n%s", err, out, src.String())
	}
	reports := make([]panicReport, len(cases))
	for i, c := range cases {
		var out bytes.Buffer
		cmd := exec.Command(bin, strconv.Itoa(i))
		cmd.Env = append(os.Environ(), "GOTRACEBACK=single") // the default: the report ends at the goroutine list
		cmd.Stdout, cmd.Stderr = &out, &out                  // one pipe: the order as a terminal shows it
		if err := cmd.Run(); err == nil {
			t.Fatalf("%s: go run did not panic: %q", c.name, out.String())
		}
		var ok bool
		if reports[i], ok = splitPanicReport(out.String()); !ok {
			t.Fatalf("%s: no panic report in what go run printed: %q", c.name, out.String())
		}
	}
	return reports
}

// splitPanicReport splits what a program printed into what came before its
// unrecovered panic and the panic's report, without the runtime's signal
// line and goroutine list.
func splitPanicReport(s string) (panicReport, bool) {
	end := strings.Index(s, "\n\ngoroutine ")
	if end < 0 {
		return panicReport{}, false
	}
	head := s[:end]
	start := strings.LastIndex(head, "panic: ")
	if start < 0 {
		return panicReport{}, false
	}
	report := head[start:]
	if i := strings.Index(report, "\n[signal "); i >= 0 {
		report = report[:i]
	}
	return panicReport{Output: head[:start], Panic: report}, true
}

// evalAll runs inputs, one request each, in a worker (Run in this
// process, with the standard library linked) and returns the answers.
func evalAll(t *testing.T, inputs ...string) []Response {
	t.Helper()
	var in, out bytes.Buffer
	enc := json.NewEncoder(&in)
	for i, code := range inputs {
		enc.Encode(Request{ID: uint64(i + 1), Code: code})
	}
	if err := Run(context.Background(), &in, &out, Options{Root: t.TempDir()}, "test", stdlib.Symbols); err != nil {
		t.Fatalf("worker: %v", err)
	}
	dec := json.NewDecoder(&out)
	var ready Response
	if err := dec.Decode(&ready); err != nil || ready.Kind != KindReady {
		t.Fatalf("worker's first line: %+v, %v", ready, err)
	}
	answers := make([]Response, len(inputs))
	for i := range answers {
		if err := dec.Decode(&answers[i]); err != nil {
			t.Fatalf("answer %d: %v", i+1, err)
		}
	}
	return answers
}

// workerImports is the comparison's imports as the worker's first input.
func workerImports() string {
	var b strings.Builder
	for _, p := range comparedImports {
		fmt.Fprintf(&b, "import %q\n", p)
	}
	return b.String()
}

// address is a pointer as the runtime prints it.
var address = regexp.MustCompile(`\b0x[0-9a-f]+\b`)

// comparePanics runs decls and then each case in one worker and checks
// that each answer's output and panic read as go run's, addresses aside
// (a panic's value that Go prints as "(T) 0xc000012345"). dropDetail
// drops from go run's report what Go's runtime error says and the
// interpreter cannot know (see indexPanic).
func comparePanics(t *testing.T, decls string, cases []panicCase, dropDetail bool) []Response {
	t.Helper()
	want := goRunPanics(t, decls, cases)
	inputs := []string{workerImports()}
	if decls != "" {
		inputs = append(inputs, decls)
	}
	for _, c := range cases {
		inputs = append(inputs, c.body)
	}
	answers := evalAll(t, inputs...)
	for i, a := range answers[:len(inputs)-len(cases)] {
		if a.Error != "" {
			t.Fatalf("setup input %q: %s", inputs[i], a.Error)
		}
	}
	answers = answers[len(inputs)-len(cases):]
	for i, c := range cases {
		a := answers[i]
		report, _, _ := strings.Cut(a.Error, "\n\ngoroutine ")
		got := panicReport{Output: a.Output, Panic: address.ReplaceAllString(report, "0xADDR")}
		w := want[i]
		w.Panic = address.ReplaceAllString(w.Panic, "0xADDR")
		if dropDetail {
			w.Panic = goDetail.ReplaceAllString(w.Panic, "")
		}
		if got != w {
			t.Errorf("%s:\nworker: %+v\ngo run: %+v (trace %q, notes %q)", c.name, got, want[i], a.Trace, a.Notes)
		}
	}
	return answers
}
