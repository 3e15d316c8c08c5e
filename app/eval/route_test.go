package eval

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
	"trestle/internal/testfix"
)

// TestEvalRoutesToCompiledAndBack drives the routing seam through a real
// worker: interpreted input stays interpreted, input the interpreter
// cannot run is compiled (syntactically, or after the interpreter's
// error), and compiled declarations carry over.
func TestEvalRoutesToCompiledAndBack(t *testing.T) {
	m := newTestManager(t, nil)
	res := mustEval(t, m, "", "import \"strings\"\nx := 40\nstrings.ToUpper(\"a\")")
	wantValue(t, res, `"A"`, "string")
	if res.Mode != ModeInterpreted {
		t.Fatalf("mode %q", res.Mode)
	}
	// strings was imported in the interpreter; the compiled input may use it
	res = mustEval(t, m, "", "n := 0\nfor l := range strings.Lines(\"a\\nbb\\n\") { n += len(l) }\nn")
	wantValue(t, res, "5", "int")
	if res.Mode != ModeCompiled {
		t.Fatalf("mode %q notes %v", res.Mode, res.Notes)
	}
	mustEval(t, m, "", "func double(yield func(int) bool) { yield(21) }")
	res = mustEval(t, m, "", "s := 0\nfor v := range double { s += 2 * v }\ns")
	wantValue(t, res, "42", "int")
	// the interpreter's state is untouched by compiled runs
	res = mustEval(t, m, "", "x + 2")
	wantValue(t, res, "42", "int")
	if res.Mode != ModeInterpreted {
		t.Fatalf("mode %q", res.Mode)
	}
	// a compile error in compiled input is at the input's column
	res = mustEval(t, m, "", "for range 3 {}\n   undefinedThing + 1")
	if !strings.HasPrefix(res.Err, "2:4: undefined: undefinedThing") || res.Mode != ModeCompiled {
		t.Fatalf("err %q mode %q", res.Err, res.Mode)
	}
}

// TestEvalStopsAndRestartsCompiled: Stop ends a compiled run; Restart
// forgets compiled declarations.
func TestEvalStopsAndRestartsCompiled(t *testing.T) {
	m := newTestManager(t, nil)
	mustEval(t, m, "", "func each(yield func(int) bool) { yield(1) }")
	done := make(chan Result, 1)
	go func() {
		r, _ := m.Eval(context.Background(), "", "for range each {}\nfor {}", 50*time.Second)
		done <- r
	}()
	testfix.Wait(t, time.Minute, "the compiled run never started", func() bool { return m.Stop("") == nil })
	if r := <-done; !strings.Contains(r.Err, "stopped") {
		t.Fatalf("err %q", r.Err)
	}
	if err := m.Restart(""); err != nil {
		t.Fatal(err)
	}
	res := mustEval(t, m, "", "for range 2 {}\nfor range each {}")
	if !strings.Contains(res.Err, "undefined: each") {
		t.Fatalf("after a restart the compiled declarations are gone: %+v", res)
	}
}

// TestEvalFallsBackToCompiledOnTheInterpretersError: a range over a
// variable holding an iterator cannot be told from syntax; the
// interpreter's error sends the input to compiled, and the note says so.
func TestEvalFallsBackToCompiledOnTheInterpretersError(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/itr\n\ngo 1.23\n",
		"seq/seq.go": "package seq\n\n// Count yields 1..n.\nfunc Count(n int) func(yield func(int) bool) {\n" +
			"\treturn func(yield func(int) bool) {\n\t\tfor i := 1; i <= n && yield(i); i++ {\n\t\t}\n\t}\n}\n",
	}
	testfix.WriteFiles(t, root, files)
	m := NewManager(ManagerOptions{Root: root, Module: "example.com/itr", WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	res := mustEval(t, m, "", "import \"example.com/itr/seq\"\nit := seq.Count(3)\ns := 0\nfor v := range it { s += v }\ns")
	wantValue(t, res, "6", "int")
	if res.Mode != ModeCompiled || !strings.Contains(strings.Join(res.Notes, "\n"), "the interpreter could not run this") {
		t.Fatalf("mode %q notes %v", res.Mode, res.Notes)
	}
}

// TestFallBackTakesTheInterpretersOtherErrorForms: two ways yaegi says it
// lacks a feature were not taken for that: "nil type" comes with the line
// its log.Panic writes to the captured output (a project package using Go
// 1.22's range over an integer), and "undefined selector iter.Seq" has no
// colon while a package imports. Both, as the interpreter gave them, send
// the input to compiled; output the input printed itself does not.
func TestFallBackTakesTheInterpretersOtherErrorForms(t *testing.T) {
	tests := []struct {
		name string
		res  Result
		want bool
	}{
		{"nil type while importing", Result{Err: `import "example.com/agree/grid": import "example.com/agree/grid" error: the interpreter panicked: nil type`, Output: "2026/12/01 16:30:52 nil type\n"}, true},
		{"nil type ranging over a func variable", Result{Err: "panic: nil type", Output: "2026/12/01 16:41:15 nil type\n"}, true},
		{"undefined selector without a colon", Result{Err: `import "example.com/agree/coll": 1:21: import "example.com/agree/coll" error: /tmp/x/gopath-1/src/example.com/agree/coll/coll.go:47:19: undefined selector iter.Seq`}, true},
		{"undefined selector with a colon", Result{Err: "1:5: undefined selector: slices.Sorted"}, true},
		{"a builtin newer than the interpreter", Result{Err: "2:1: undefined: clear"}, true},
		{"a name of the person's", Result{Err: "1:1: undefined: clearAll"}, false},
		{"a field the person's value lacks", Result{Err: "1:5: undefined selector: acct.Nmae"}, false},
		{"the input printed first", Result{Err: "panic: nil type", Output: "hello\n2026/12/01 16:41:15 nil type\n"}, false},
		{"the input ran before it panicked", Result{Err: "panic: nil type", trace: "1:28: panic: main(...)\n"}, false},
		{"a dependency it cannot interpret", Result{Err: `import "golang.org/x/text/message": 1:21: import "golang.org/x/text/message" error: /tmp/x/gopath-1/src/golang.org/x/text/internal/number/number.go:150:42: cannot convert expression of type language.Tag to type compact.Tag`}, true},
		{"a missing dependency", Result{Err: `import "example.com/nope": 1:21: import "example.com/nope" error: unable to find source related to: "example.com/nope"`}, false},
		{"a project package", Result{Err: `import "example.com/agree/bank": 1:21: import "example.com/agree/bank" error: bank.go:3:1: undefined: x`}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fallBackCompiled(tt.res, agreeModule); got != tt.want {
				t.Fatalf("fallBackCompiled(%+v) = %v, want %v", tt.res, got, tt.want)
			}
		})
	}
}

// TestEvalMisreadInputRunsCompiledAndSaysSo: an input using a project
// package that declares a type runs compiled, with why; a variable it
// defined is there for the next input, which runs compiled too; a
// top-level var carries over to later compiled inputs.
func TestEvalMisreadInputRunsCompiledAndSaysSo(t *testing.T) {
	root := testfix.Project(t, map[string]string{
		"go.mod": "module example.com/acct\n\ngo 1.23\n",
		"acct/acct.go": "package acct\n\n// Account has a note JSON must not see.\ntype Account struct {\n\tOwner string `json:\"owner\"`\n\tnote  string\n}\n\n" +
			"// New opens one.\nfunc New(owner string) Account { return Account{Owner: owner, note: \"n\"} }\n",
	})
	m := NewManager(ManagerOptions{Root: root, Module: "example.com/acct", WorkerCommand: testWorkerCommand})
	t.Cleanup(m.Close)
	res := mustEval(t, m, "", "import \"encoding/json\"\nimport \"example.com/acct/acct\"\na := acct.New(\"ann\")\nb, _ := json.Marshal(a)\nstring(b)")
	wantValue(t, res, `"{\"owner\":\"ann\"}"`, "string")
	if res.Mode != ModeCompiled || !strings.Contains(strings.Join(res.Notes, "\n"), "example.com/acct/acct, which declares the type Account") {
		t.Fatalf("mode %q notes %v", res.Mode, res.Notes)
	}
	res = mustEval(t, m, "", "a.Owner")
	wantValue(t, res, `"ann"`, "string")
	if res.Mode != ModeCompiled || !strings.Contains(strings.Join(res.Notes, "\n"), "ran 1 earlier input(s) again first") {
		t.Fatalf("mode %q notes %v", res.Mode, res.Notes)
	}
	if res := mustEval(t, m, "", "var kept = acct.New(\"bo\")"); res.Err != "" || res.Mode != ModeCompiled {
		t.Fatalf("var kept: mode %q err %q notes %v", res.Mode, res.Err, res.Notes)
	}
	wantValue(t, mustEval(t, m, "", "kept.Owner"), `"bo"`, "string")
}

// goRunSession is the agreeCase that runs inputs in one main, as a
// person's session runs them one after another: its imports, its
// statements, and the last input's expression.
func goRunSession(inputs []string) agreeCase {
	var imports, body []string
	for _, line := range strings.Split(strings.Join(inputs, "\n"), "\n") {
		if path, ok := strings.CutPrefix(line, "import "); ok {
			imports = append(imports, strings.Trim(path, `"`))
			continue
		}
		body = append(body, line)
	}
	return agreeCase{name: "session", imports: imports, body: strings.Join(body[:len(body)-1], "\n"), expr: body[len(body)-1]}
}

// TestCompiledInputsKeepTheSessionsState: the person opens an account
// with a project type (which runs compiled), changes it in later inputs,
// some of which use a variable the interpreter defined, and reads it back:
// every value is what `go run` of the whole session gives, the output of
// each input is its own, and the interpreter's own variables are
// untouched. The same on a copy of a real module from the module cache
// (sahilm/fuzzy, whose types make its inputs run compiled), where a panic
// inside the module shows the module's frames.
func TestCompiledInputsKeepTheSessionsState(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build for every compiled input")
	}
	sessions := []struct {
		name, module string
		root         func(t *testing.T) string
		inputs       []string
		modes        []string
	}{
		{"bank", agreeModule, func(t *testing.T) string { return writeAgreeModule(t) }, []string{
			"import \"" + agreeModule + "/bank\"\nacct := bank.New(\"ann\", 10)",
			"n := 2",
			"fmt.Println(\"withdrawing\", n)\nerrW := acct.Withdraw(n)",
			"kept := 40",
			"acct.Withdraw(1)",
			"import \"errors\"\nshort := errors.Is(acct.Withdraw(100), bank.ErrInsufficient)",
			"fmt.Sprint(acct.Balance, errW, kept+2, short)",
		}, []string{ModeCompiled, ModeInterpreted, ModeCompiled, ModeInterpreted, ModeCompiled, ModeCompiled, ModeCompiled}},
		{"fuzzy", "github.com/sahilm/fuzzy", func(t *testing.T) string { return testfix.CopyModule(t, "github.com/sahilm/fuzzy") }, []string{
			"import \"github.com/sahilm/fuzzy\"\nms := fuzzy.Find(\"ab\", []string{\"xaxb\", \"ab\", \"zz\", \"a-b\"})",
			"ms = ms[1:]",
			"first := ms[0].Str",
			"fmt.Sprint(len(ms), first, ms[len(ms)-1].MatchedIndexes)",
		}, []string{ModeCompiled, ModeCompiled, ModeCompiled, ModeCompiled}},
	}
	for _, sc := range sessions {
		t.Run(sc.name, func(t *testing.T) {
			root := sc.root(t)
			want := goRunIn(t, sc.root(t), []agreeCase{goRunSession(sc.inputs)})[0]
			m := NewManager(ManagerOptions{Root: root, Module: sc.module, WorkerCommand: testWorkerCommand})
			t.Cleanup(m.Close)
			var res Result
			for i, in := range sc.inputs {
				var err error
				res, err = m.Eval(context.Background(), "", in, time.Minute)
				if err != nil || res.Err != "" {
					t.Fatalf("input %d %q: %v %q (notes %v)", i+1, in, err, res.Err, res.Notes)
				}
				if sc.modes[i] != "" && res.Mode != sc.modes[i] {
					t.Errorf("input %d %q ran %s (notes %v)", i+1, in, res.Mode, res.Notes)
				}
				if strings.HasPrefix(in, "fmt.Println(\"withdrawing\"") && res.Output != "withdrawing 2\n" {
					t.Errorf("input %d output %q", i+1, res.Output)
				}
				if i > 2 && strings.Contains(res.Output, "withdrawing") {
					t.Errorf("input %d shows an earlier input's output: %q", i+1, res.Output)
				}
			}
			want.Output = "" // go run's is the whole session's; the evaluator's last input printed nothing
			if got := (goRunResult{Value: res.Value, Type: res.Type, Err: res.Err, Output: res.Output}); got != want {
				t.Errorf("evaluator: %+v\ngo run: %+v\nnotes %v", got, want, res.Notes)
			}
			if sc.name != "fuzzy" {
				return
			}
			// a panic inside the module shows its frames, as go run does (issue 21)
			res = mustEval(t, m, "", "fuzzy.FindFrom(\"a\", nil)")
			for _, want := range []string{"panic: runtime error: invalid memory address or nil pointer dereference", "\ngithub.com/sahilm/fuzzy.FindFrom(...)\n\t", "fuzzy.go:", "\nmain.main(...)\n\tinput:1"} {
				if !strings.Contains(res.Err, want) {
					t.Errorf("the panic %q lacks %q", res.Err, want)
				}
			}
		})
	}
}

// TestCompiledBuildIsShownWhileItRuns: while an input that runs compiled
// is being built, the selection's subscribers hear that it is building
// (trestle_eval's progress, the status bar), and its status says so; once
// built, they hear that too, and the status no longer says building.
func TestCompiledBuildIsShownWhileItRuns(t *testing.T) {
	m := newTestManager(t, nil)
	var phases, during []string
	cancel := m.Subscribe(func(e BuildEvent) {
		phases = append(phases, e.Phase+": "+e.Describe())
		if e.Phase == PhaseCompiledBuild {
			during = append(during, m.Status()[0].Activity)
		}
	})
	res := mustEval(t, m, "", "n := 0\nfor i := range 3 { n += i }\nn")
	cancel()
	wantValue(t, res, "3", "int")
	want := []string{"compiled-build: building a compiled input…", "compiled-built: running a compiled input"}
	if strings.Join(phases, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events %q, want %q", phases, want)
	}
	if len(during) != 1 || !strings.HasPrefix(during[0], "building a compiled input for ") {
		t.Fatalf("status during the build %q", during)
	}
	if a := m.Status()[0].Activity; a != "" {
		t.Fatalf("status after the build %q", a)
	}
}

// TestPackageStateFollowsTheSession: what an input does to a package's
// state (rates.SetRate(3), os.Setenv, bbolt.DefaultOptions.Timeout = d) is
// there for every later input, whichever engine runs either, as it is in
// `go run` of the whole session: a compiled program runs the inputs that
// changed a package it reaches again first (also through a project type
// whose method reads another package's var), and a package a compiled
// input changed is read compiled from then on, not from the interpreter's
// stale copy. Each value is checked against `go run` of the session up to
// that input; the same on a copy of bbolt from the module cache.
func TestPackageStateFollowsTheSession(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build for every compiled input")
	}
	type step struct {
		code, mode string
		check      bool // its last line is an expression: compare it with go run
	}
	sessions := []struct {
		name, module string
		root         func(t *testing.T) string
		steps        []step
	}{
		{"rates", agreeModule, func(t *testing.T) string { return writeAgreeModule(t) }, []step{
			{"import \"" + agreeModule + "/rates\"\nrates.SetRate(3)", ModeInterpreted, false},
			{"rates.SetFixed(4)", ModeInterpreted, false},
			{"rates.Fixed * 10", ModeCompiled, true}, // the interpreter took Fixed for the constant 2
			{"import \"" + agreeModule + "/fees\"\nfees.Fee{Base: 2}.Total()", ModeCompiled, true},
			{"import \"os\"\nos.Setenv(\"TRESTLE_RATE_NOTE\", \"set \")", ModeInterpreted, false},
			{"n := 0\nfor i := range 3 {\n\tn += i\n\trates.SetRate(rates.Rate() + 1)\n}", ModeCompiled, false},
			{"os.Getenv(\"TRESTLE_RATE_NOTE\") + fmt.Sprint(rates.Rate(), fees.Fee{Base: 2}.Total(), n)", ModeCompiled, true},
		}},
		{"bbolt", "go.etcd.io/bbolt", func(t *testing.T) string { return testfix.CopyBbolt(t) }, []step{
			{"import \"go.etcd.io/bbolt\"\nimport \"time\"\nbbolt.DefaultOptions.Timeout = 3 * time.Second", ModeCompiled, false},
			{"bbolt.DefaultOptions.NoGrowSync = true", ModeCompiled, false},
			{"fmt.Sprint(bbolt.DefaultOptions.Timeout, bbolt.DefaultOptions.NoGrowSync)", ModeCompiled, true},
		}},
		// a dependency's own imports: liba reads libb's Scale, app calls liba
		{"chain", chainModule, writeChainModule, []step{
			{"import \"example.com/libb\"\nlibb.Scale = 3", ModeCompiled, false},
			{"import \"example.com/liba\"\nn := 0\nfor i := range 2 {\n\tn += liba.Total(i + 1)\n}\nn", ModeCompiled, true},
			{"libb.Scale = 5", ModeCompiled, false},
			{"import \"" + chainModule + "/app\"\napp.Price()", ModeCompiled, true},
		}},
	}
	for _, sc := range sessions {
		t.Run(sc.name, func(t *testing.T) {
			var cases []agreeCase // go run of the session up to each checked step
			var inputs []string
			for _, st := range sc.steps {
				inputs = append(inputs, st.code)
				if st.check {
					cases = append(cases, goRunSession(slices.Clone(inputs)))
					// later, a statement: Go refuses an unused value
					cut := strings.LastIndex(st.code, "\n") + 1
					inputs[len(inputs)-1] = st.code[:cut] + "_ = " + st.code[cut:]
				}
			}
			// go run and the evaluator share one copy of the module, so that
			// the Go build cache (keyed by the files' paths) compiles it once
			root := sc.root(t)
			want := goRunEach(t, root, cases) // a process each: package state must not leak between them
			m := NewManager(ManagerOptions{Root: root, Module: sc.module, WorkerCommand: testWorkerCommand})
			t.Cleanup(m.Close)
			checked := 0
			for i, st := range sc.steps {
				res, err := m.Eval(context.Background(), "", st.code, time.Minute)
				if err != nil || res.Err != "" {
					t.Fatalf("input %d %q: %v %q (notes %v)", i+1, st.code, err, res.Err, res.Notes)
				}
				if res.Mode != st.mode {
					t.Errorf("input %d %q ran %s (notes %v)", i+1, st.code, res.Mode, res.Notes)
				}
				if !st.check {
					continue
				}
				w := want[checked]
				checked++
				w.Output = "" // go run's is the whole session's; the evaluator's last input printed nothing
				if got := (goRunResult{Value: res.Value, Type: res.Type, Err: res.Err, Output: res.Output}); got != w {
					t.Errorf("input %d %q: evaluator (%s): %+v\ngo run: %+v\nnotes %v", i+1, st.code, res.Mode, got, w, res.Notes)
				}
			}
		})
	}
}

// chainModule is a project whose package app imports a dependency (liba)
// that imports another (libb) whose package var it reads; both are
// modules of their own in the project's folder, replaced in go.mod.
const chainModule = "example.com/chain"

func writeChainModule(t *testing.T) string {
	return testfix.Project(t, map[string]string{
		"go.mod": "module " + chainModule + "\n\ngo 1.25.0\n\nrequire (\n\texample.com/liba v0.0.0\n\texample.com/libb v0.0.0\n)\n\n" +
			"replace example.com/liba => ./third/liba\n\nreplace example.com/libb => ./third/libb\n",
		"app/app.go":         "package app\n\nimport \"example.com/liba\"\n\n// Price is liba's total of 10.\nfunc Price() int { return liba.Total(10) }\n",
		"third/liba/go.mod":  "module example.com/liba\n\ngo 1.22\n\nrequire example.com/libb v0.0.0\n",
		"third/liba/liba.go": "package liba\n\nimport \"example.com/libb\"\n\n// Total is n at libb's scale.\nfunc Total(n int) int { return n * libb.Scale }\n",
		"third/libb/go.mod":  "module example.com/libb\n\ngo 1.22\n",
		"third/libb/libb.go": "package libb\n\n// Scale is what liba multiplies by.\nvar Scale = 1\n",
	})
}
