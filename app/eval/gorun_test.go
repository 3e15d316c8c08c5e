package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/app/eval/evaltest"
	"trestle/internal/testfix"
)

// agreeModule is the module path of the go-run agreement fixture.
const agreeModule = "example.com/agree"

// agreeFiles are the fixture's own packages: the constructs the
// interpreter (yaegi) was seen to get silently wrong on a real project
// (issue 21), each in code a Go developer writes every day.
var agreeFiles = map[string]string{
	// unexported fields beside JSON tags, error sentinels and types, init
	"bank/bank.go": `package bank

import (
	"errors"
	"fmt"
)

// ErrInsufficient is returned, wrapped, by Withdraw.
var ErrInsufficient = errors.New("insufficient funds")

// LimitError says a withdrawal is over the limit.
type LimitError struct{ Limit int }

func (e *LimitError) Error() string { return fmt.Sprintf("over the limit of %d", e.Limit) }

// Account is an account; note is not for JSON.
type Account struct {
	Owner   string   ` + "`json:\"owner\"`" + `
	Balance int      ` + "`json:\"balance,omitempty\"`" + `
	note    string
	Tags    []string ` + "`json:\"tags,omitempty\"`" + `
}

// New opens an account.
func New(owner string, balance int) *Account {
	return &Account{Owner: owner, Balance: balance, note: "new"}
}

// Withdraw takes n from the account.
func (a *Account) Withdraw(n int) error {
	if n > 1000 {
		return fmt.Errorf("withdraw %d: %w", n, &LimitError{Limit: 1000})
	}
	if n > a.Balance {
		return fmt.Errorf("withdraw %d from %s: %w", n, a.Owner, ErrInsufficient)
	}
	a.Balance -= n
	return nil
}

// Note is the account's note.
func (a *Account) Note() string { return a.note }

// Describe formats the account with its field names.
func (a *Account) Describe() string { return fmt.Sprintf("%+v", *a) }

var opened []string

func init() { opened = append(opened, "bank") }

// Opened lists the packages whose init ran.
func Opened() []string { return opened }
`,
	// named types with methods, error types, a mutex: no unexported struct fields
	"units/units.go": `package units

import (
	"errors"
	"fmt"
	"sync"
)

// Celsius is a temperature.
type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

// Code is an error code.
type Code string

func (c Code) Error() string { return "code " + string(c) }

// ErrCold is a sentinel of the package's own error type.
var ErrCold = Code("cold")

// NotFound matches any error that says not found.
type NotFound struct{ Name string }

func (e NotFound) Error() string { return e.Name + " not found" }

// Is makes every NotFound match ErrMissing.
func (e NotFound) Is(target error) bool { return target == ErrMissing }

// ErrMissing is what a NotFound is.
var ErrMissing = errors.New("missing")

// Check fails below zero.
func Check(c Celsius) error {
	if c < 0 {
		return fmt.Errorf("check %v: %w", c, ErrCold)
	}
	return nil
}

// Find never finds.
func Find(name string) error { return fmt.Errorf("find: %w", NotFound{Name: name}) }

// Point has exported fields only.
type Point struct{ X, Y int }

// Counter counts under a mutex.
type Counter struct {
	sync.Mutex
	N int
}

// Add adds one.
func (c *Counter) Add() int { c.Lock(); defer c.Unlock(); c.N++; return c.N }
`,
	// functions only: the interpreter's fast path stays right here
	"calc/calc.go": `package calc

import "strings"

// Add adds.
func Add(a, b int) int { return a + b }

// Shout is s in capitals, with a bang.
func Shout(s string) string { return strings.ToUpper(s) + "!" }
`,
	// package state: no types of its own (interpreted), a var a call changes
	"rates/rates.go": `package rates

var rate = 1

// SetRate sets the rate.
func SetRate(n int) { rate = n }

// Rate is the rate.
func Rate() int { return rate }

// Fixed is a fee a caller may set.
var Fixed = 2

// SetFixed sets Fixed.
func SetFixed(n int) { Fixed = n }
`,
	// a type (compiled) whose behaviour depends on another package's state
	"fees/fees.go": `package fees

import "example.com/agree/rates"

// Fee is charged at the current rate.
type Fee struct{ Base int }

// Total is the fee at the rate.
func (f Fee) Total() int { return f.Base * rates.Rate() }
`,
	// generic funcs and types, iter.Seq, range over int
	"coll/coll.go": `package coll

import "iter"

// Number is what Sum adds.
type Number interface{ ~int | ~int64 | ~float64 }

// Map applies f to each of xs.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// Sum adds xs.
func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// Stack is a stack.
type Stack[T any] struct{ items []T }

// Push pushes v.
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

// Pop pops the top.
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

// Len is the stack's size.
func (s *Stack[T]) Len() int { return len(s.items) }

// Count yields 0..n-1.
func Count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// Collect gathers what seq yields.
func Collect[T any](seq iter.Seq[T]) []T {
	var out []T
	for v := range seq {
		out = append(out, v)
	}
	return out
}
`,
	// Go 1.22 range over an integer in a plain package
	"grid/grid.go": `package grid

var size int

func init() { size = 3 }

// Cells counts the cells of an n by n grid, the long way.
func Cells(n int) int {
	c := 0
	for range n {
		for j := range n {
			c += j - j + 1
		}
	}
	return c
}

// Size is set by init.
func Size() int { return size }
`,
	// select with assignment cases
	"pipe/pipe.go": `package pipe

// First is whichever of a and b has a value first.
func First(a, b <-chan string) string {
	var got string
	select {
	case got = <-a:
	case got = <-b:
	}
	return got
}
`,
	// third-party structs embedded in the project's own
	"change/change.go": `package change

import (
	"sort"

	"github.com/fsnotify/fsnotify"
	"github.com/sahilm/fuzzy"
)

// Change is a file event the project has seen.
type Change struct {
	fsnotify.Event
	Seen int
}

// New is a write and create of name.
func New(name string) Change {
	return Change{Event: fsnotify.Event{Name: name, Op: fsnotify.Write | fsnotify.Create}, Seen: 1}
}

// byLen orders fuzzy matches by length, keeping fuzzy's Len and Swap.
type byLen struct{ fuzzy.Matches }

func (b byLen) Less(i, j int) bool { return len(b.Matches[i].Str) < len(b.Matches[j].Str) }

// Shortest is the names that match pattern, shortest first.
func Shortest(pattern string, names []string) []string {
	ms := fuzzy.Find(pattern, names)
	sort.Stable(byLen{ms})
	var out []string
	for _, m := range ms {
		out = append(out, m.Str)
	}
	return out
}
`,
}

// agreeCase is one input: imports, statements, and the expression whose
// value the evaluator returns.
type agreeCase struct {
	name    string
	imports []string
	body    string
	expr    string
}

func (c agreeCase) input() string {
	var b strings.Builder
	for _, i := range c.imports {
		fmt.Fprintf(&b, "import %q\n", i)
	}
	if c.body != "" {
		b.WriteString(c.body + "\n")
	}
	return b.String() + c.expr
}

var agreeCases = []agreeCase{
	{"json of unexported field", []string{"encoding/json", agreeModule + "/bank"},
		"acctJ := bank.New(\"ann\", 10)\nbJ, errJ := json.Marshal(acctJ)\nif errJ != nil { panic(errJ) }", "string(bJ)"},
	{"value of a struct with an unexported field", []string{agreeModule + "/bank"}, "", `bank.New("bob", 5)`},
	{"json into a struct with an unexported field", []string{"encoding/json", agreeModule + "/bank"},
		"var acctU bank.Account\nerrU := json.Unmarshal([]byte(`{\"owner\":\"cy\",\"note\":\"x\",\"Xnote\":\"y\"}`), &acctU)", `fmt.Sprint(errU) + acctU.Owner + "/" + acctU.Note()`},
	{"project code formats its struct", []string{agreeModule + "/bank"}, "", `bank.New("dan", 2).Describe()`},
	{"reflect on a project struct", []string{"reflect", agreeModule + "/bank"},
		"tR := reflect.TypeOf(bank.Account{})", `tR.Field(2).Name + " " + tR.Field(0).Tag.Get("json") + " " + tR.String()`},
	{"errors.Is with a project sentinel", []string{"errors", agreeModule + "/bank"},
		"errI := bank.New(\"dee\", 1).Withdraw(5)", "errors.Is(errI, bank.ErrInsufficient)"},
	{"errors.As with a project error type", []string{"errors", agreeModule + "/bank"},
		"errA := bank.New(\"eve\", 1).Withdraw(5000)\nvar le *bank.LimitError\nokA := errors.As(errA, &le)", "fmt.Sprint(okA, le)"},
	{"a wrapped project error", []string{agreeModule + "/bank"}, "", `bank.New("fay", 0).Withdraw(3)`},
	{"errors.Is with a sentinel of a project error type", []string{"errors", agreeModule + "/units"},
		"errC := units.Check(-1)", "fmt.Sprint(errors.Is(errC, units.ErrCold), errC)"},
	{"errors.Is through a project Is method", []string{"errors", agreeModule + "/units"}, "", `errors.Is(units.Find("x"), units.ErrMissing)`},
	{"errors.As into a project value type", []string{"errors", agreeModule + "/units"},
		"var nfA units.NotFound\nokN := errors.As(units.Find(\"y\"), &nfA)", "fmt.Sprint(okN, nfA.Name)"},
	{"a project Stringer", []string{agreeModule + "/units"}, "", "fmt.Sprint(units.Celsius(21.5))"},
	{"a project named type's value", []string{agreeModule + "/units"}, "", "units.Celsius(3)"},
	{"%T of a project type", []string{agreeModule + "/units"}, "", `fmt.Sprintf("%T %T", units.Celsius(1), units.Point{})`},
	{"a struct with exported fields", []string{"encoding/json", agreeModule + "/units"},
		"bP, _ := json.Marshal(units.Point{X: 1, Y: 2})", "string(bP)"},
	{"an embedded mutex", []string{agreeModule + "/units"}, "var cM units.Counter\ncM.Add()", "cM.Add()"},
	{"init side effects", []string{agreeModule + "/bank", agreeModule + "/grid"}, "", "fmt.Sprint(bank.Opened(), grid.Size())"},
	{"methods of an embedded third-party struct", []string{"github.com/fsnotify/fsnotify", agreeModule + "/change"},
		"chE := change.New(\"a.txt\")", "fmt.Sprint(chE.String(), chE.Has(fsnotify.Create), chE.Seen)"},
	{"an embedded third-party Stringer", []string{agreeModule + "/change"}, "", `fmt.Sprint(change.New("b.txt"))`},
	{"sort through an embedded third-party type", []string{agreeModule + "/change"}, "",
		`change.Shortest("ab", []string{"xxaxb", "ab", "a-b"})`},
	{"select with assignment in project code", []string{agreeModule + "/pipe"},
		"chA := make(chan string, 1)\nchA <- \"x\"", "pipe.First(chA, nil)"},
	{"select with assignment in the input", nil,
		"chS := make(chan int, 1)\nchS <- 7\nvar gotS int\nselect {\ncase gotS = <-chS:\n}", "gotS"},
	{"generic func", []string{"strconv", agreeModule + "/coll"}, "",
		"coll.Map([]int{1, 2, 3}, func(i int) string { return strconv.Itoa(i * i) })"},
	{"generic func with a constraint", []string{agreeModule + "/coll"}, "", "coll.Sum([]float64{1.5, 2})"},
	{"generic type", []string{"strconv", agreeModule + "/coll"},
		"var stG coll.Stack[string]\nstG.Push(\"a\")\nstG.Push(\"b\")\ntopG, _ := stG.Pop()", "topG + strconv.Itoa(stG.Len())"},
	{"generic func over iter.Seq", []string{agreeModule + "/coll"}, "", "coll.Collect(coll.Count(4))"},
	{"range over a project iter.Seq", []string{agreeModule + "/coll"},
		"totR := 0\nfor v := range coll.Count(5) { totR += v }", "totR"},
	{"range over int in project code", []string{agreeModule + "/grid"}, "", "grid.Cells(4)"},
	{"a type declared in the input", []string{"encoding/json"},
		"type noted struct {\n\tName string\n\tnote string\n}\nbN, _ := json.Marshal(noted{\"a\", \"b\"})", "string(bN) + fmt.Sprintf(\" %T\", noted{})"},
	{"loop variables captured per iteration", nil,
		"var fnsL []func() int\nfor i := 0; i < 3; i++ {\n\tfnsL = append(fnsL, func() int { return i })\n}\nsumL := 0\nfor _, f := range fnsL {\n\tsumL = sumL*10 + f()\n}", "sumL"},
	{"loop variables of a range captured", nil,
		"var ptrsL []*int\nfor _, v := range []int{1, 2, 3} {\n\tptrsL = append(ptrsL, &v)\n}", "*ptrsL[0] + *ptrsL[2]*10"},
	{"min, max and clear", nil, "mC := map[int]int{1: 1}\nclear(mC)", "min(3, 1, 2)*100 + max(4, 7)*10 + len(mC)"},
	{"plain project funcs", []string{agreeModule + "/calc"}, "", `calc.Shout("hi") + fmt.Sprint(calc.Add(2, 3))`},
	{"the standard library only", []string{"strings"}, "", `strings.Repeat("ab", 2)`},
	{"a wrapped standard error", []string{"io"}, "", `fmt.Errorf("read: %w", io.EOF)`},
}

// agreeInterpreted are the cases the interpreter must keep: nothing in
// them is what it gets wrong, and its fast path is the point of having it.
var agreeInterpreted = []string{"plain project funcs", "the standard library only", "a wrapped standard error"}

// TestEvalAgreesWithGoRun: on a module whose packages use what the
// interpreter gets wrong (unexported fields with JSON tags, errors.Is/As
// with the project's errors, embedded third-party structs, select with
// assignment, generics, iter.Seq, range over int, init), every value the
// evaluator gives is the value `go run` of the same code gives, byte for
// byte, value and type.
func TestEvalAgreesWithGoRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker and runs go")
	}
	want := goRunCases(t, agreeCases)
	m := NewManager(ManagerOptions{
		Root: writeAgreeModule(t), Module: agreeModule, WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: evaltest.CacheDir(), BuildWait: 10 * time.Minute,
	})
	t.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if _, err := m.Eval(ctx, "", "import \"fmt\"", time.Minute); err != nil {
		t.Fatal(err)
	}
	for i, c := range agreeCases {
		t.Run(c.name, func(t *testing.T) {
			res, err := m.Eval(ctx, "", c.input(), time.Minute)
			if err != nil {
				t.Fatalf("%v (notes %v)", err, res.Notes)
			}
			got := goRunResult{Value: res.Value, Type: res.Type, Err: res.Err, Output: res.Output}
			if got != want[i] {
				t.Errorf("evaluator (%s %s): %+v\ngo run: %+v\nnotes %v", res.Mode, res.Worker, got, want[i], res.Notes)
			}
			if slices.Contains(agreeInterpreted, c.name) != (res.Mode == ModeInterpreted) {
				t.Errorf("ran %s (notes %v)", res.Mode, res.Notes)
			}
		})
	}
}

// TestEvalAgreesWithGoRunOnFsnotify: on a copy of a real module from the
// module cache (fsnotify, whose package the worker links natively for its
// x/sys use), its own types' values, errors and names are what `go run`
// gives.
func TestEvalAgreesWithGoRunOnFsnotify(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker and runs go")
	}
	const mod = "github.com/fsnotify/fsnotify"
	cases := []agreeCase{
		{"an event's value", []string{mod}, "", `fsnotify.Event{Name: "a.txt", Op: fsnotify.Create | fsnotify.Write}`},
		{"an op's name", []string{mod}, "", "fsnotify.Op(0).String() + fsnotify.Remove.String()"},
		{"errors.Is with its sentinel", []string{"errors", mod}, "", `errors.Is(fmt.Errorf("x: %w", fsnotify.ErrClosed), fsnotify.ErrClosed)`},
		{"its types' names", []string{mod}, "", `fmt.Sprintf("%T %T", fsnotify.Event{}, fsnotify.ErrEventOverflow)`},
	}
	want := goRunIn(t, testfix.CopyModule(t, mod), cases)
	m := realModuleManager(t, mod)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if _, err := m.Eval(ctx, "", "import \"fmt\"", time.Minute); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		res, err := m.Eval(ctx, "", c.input(), time.Minute)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s: %s %s = %s", c.name, res.Mode, res.Worker, res.Value)
		if got := (goRunResult{Value: res.Value, Type: res.Type, Err: res.Err, Output: res.Output}); got != want[i] {
			t.Errorf("%s: evaluator (%s %s): %+v\ngo run: %+v\nnotes %v", c.name, res.Mode, res.Worker, got, want[i], res.Notes)
		}
	}
}

// goRunResult is what one case gave.
type goRunResult struct{ Value, Type, Err, Output string }

// writeAgreeModule writes the fixture into a new folder: go.mod requires
// fsnotify, fuzzy and x/sys at trestle's versions (in the module cache),
// and go.sum is trestle's.
func writeAgreeModule(t testing.TB) string {
	t.Helper()
	var req strings.Builder
	for _, mod := range []string{"github.com/fsnotify/fsnotify", "github.com/sahilm/fuzzy", "golang.org/x/sys"} {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", mod).Output()
		if err != nil {
			t.Fatalf("version of %s: %v", mod, err)
		}
		fmt.Fprintf(&req, "\t%s %s\n", mod, strings.TrimSpace(string(out)))
	}
	sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module " + agreeModule + "\n\ngo 1.25.0\n\nrequire (\n" + req.String() + ")\n",
		"go.sum": string(sum),
	}
	for k, v := range agreeFiles {
		files[k] = v
	}
	return testfix.Project(t, files)
}

// goRunCases runs every case with `go run`, in a copy of the fixture with a
// generated main: each case is a function in its own file (its own
// imports), run with its output captured and its panic recovered, and
// its value formatted as the evaluator formats one.
func goRunCases(t *testing.T, cases []agreeCase) []goRunResult {
	t.Helper()
	return goRunIn(t, writeAgreeModule(t), cases)
}

// goRunIn is goRunCases in a copy of a module at root.
func goRunIn(t *testing.T, root string, cases []agreeCase) []goRunResult {
	t.Helper()
	writeCases(t, root, cases)
	cmd := exec.Command("go", "run", "./gorun")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go run: %v\n%s", err, stderr)
	}
	var res []goRunResult
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(cases) {
		t.Fatalf("go run printed %q: %v", out, err)
	}
	return res
}

// goRunEach is goRunIn with each case in a process of its own (package
// state does not leak between them), from one build of the program.
func goRunEach(t *testing.T, root string, cases []agreeCase) []goRunResult {
	t.Helper()
	writeCases(t, root, cases)
	bin := filepath.Join(t.TempDir(), "gorun")
	build := exec.Command("go", "build", "-o", bin, "./gorun")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var res []goRunResult
	for i := range cases {
		cmd := exec.Command(bin)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "TRESTLE_GORUN_ONLY="+strconv.Itoa(i))
		out, err := cmd.Output()
		var one []goRunResult
		if err != nil || json.Unmarshal(out, &one) != nil || len(one) != 1 {
			t.Fatalf("case %d (%s) printed %q: %v", i, cases[i].name, out, err)
		}
		res = append(res, one[0])
	}
	return res
}

// writeGoRun writes the fixture with the generated main of cases in
// ./gorun into a new folder.
func writeGoRun(t testing.TB, cases []agreeCase) string {
	t.Helper()
	root := writeAgreeModule(t)
	writeCases(t, root, cases)
	return root
}

// writeCases writes the generated main of cases into root/gorun.
func writeCases(t testing.TB, root string, cases []agreeCase) {
	t.Helper()
	files := map[string]string{"gorun/main.go": goRunMain(len(cases))}
	for i, c := range cases {
		var imports strings.Builder
		for _, p := range append([]string{"fmt"}, c.imports...) {
			fmt.Fprintf(&imports, "\t%q\n", p)
		}
		files[fmt.Sprintf("gorun/case%d.go", i)] = fmt.Sprintf(
			"package main\n\nimport (\n%s)\n\nvar _ = fmt.Sprint\n\nfunc case%d() any {\n%s\nreturn %s\n}\n",
			imports.String(), i, c.body, c.expr)
	}
	testfix.WriteFiles(t, root, files)
}

// goRunMain is the generated main: it runs case0..case(n-1) and prints
// their results as JSON.
func goRunMain(n int) string {
	var calls strings.Builder
	for i := range n {
		fmt.Fprintf(&calls, "\t\tcase%d,\n", i)
	}
	return `package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
)

type result struct{ Value, Type, Err, Output string }

// format is the evaluator's formatValue.
func format(v any) (string, string) {
	var s string
	switch x := v.(type) {
	case string:
		s = strconv.Quote(x)
	case error:
		s = fmt.Sprintf("%v", x)
	default:
		s = fmt.Sprintf("%+v", x)
	}
	return s, reflect.TypeOf(v).String()
}

func run(f func() any) (res result) {
	r, w, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() { b, _ := io.ReadAll(r); done <- string(b) }()
	defer func() {
		if p := recover(); p != nil {
			res.Err = fmt.Sprintf("panic: %v", p)
		}
		w.Close()
		os.Stdout = stdout
		res.Output = <-done
	}()
	res.Value, res.Type = format(f())
	return res
}

func main() {
	var out []result
	for i, f := range []func() any{
` + calls.String() + `	} {
		if only := os.Getenv("TRESTLE_GORUN_ONLY"); only != "" && only != strconv.Itoa(i) {
			continue
		}
		out = append(out, run(f))
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
`
}

// interpreterSlips are everyday inputs the interpreter (yaegi) ran to a
// silently wrong value, or lost, found by trying inputs against `go run`
// (issue 21): an inner scope's x := taken for the session's x, a loop
// body's variable or a deferred call's argument shared across the loop,
// the value of an expression that starts with a func literal, a type
// switch that binds at the top level, a method expression of a pointer
// type (which panicked), the value recover() returns (a reflect.Value for
// panic(v), reflect's wording for the runtime's panics), a deferred call's
// argument (evaluated when the call ran), _ = v after an input defined _
// (the native worker's interpreter panicked: reflect.Set). They run compiled
// now; the ones named in slipControls are controls the interpreter keeps
// (a statement group that starts with a func literal lost its last value
// until the worker marked it a statement; a recover() whose value is only
// dropped or compared with nil).
var interpreterSlips = []agreeCase{
	{"if body shadows", nil, "shA := 1\nif true {\n\tshA := 2\n\t_ = shA\n}", "shA"},
	{"for init shadows", nil, "shB := 5\nfor shB := 0; shB < 2; shB++ {\n}", "shB"},
	{"block shadows", nil, "shC := 1\n{\n\tshC := 2\n\t_ = shC\n}", "shC"},
	{"deferred call in a loop", nil, "dfA := func() (s string) {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer func(n int) { s += fmt.Sprint(n) }(i)\n\t}\n\treturn\n}", "dfA()"},
	{"deferred closure over a loop body's variable", nil, "dfB := func() (s string) {\n\tfor i := 0; i < 3; i++ {\n\t\tj := i * 10\n\t\tdefer func() { s += fmt.Sprint(j, \" \") }()\n\t}\n\treturn\n}", "dfB()"},
	{"a func literal called", nil, "", "func() int { return 7 }() + 1"},
	{"a type switch that binds", nil, "var tvA any = 3.5\ntsA := \"\"\nswitch v := tvA.(type) {\ncase float64:\n\ttsA = fmt.Sprint(v * 2)\n}", "tsA"},
	{"a method expression", []string{"strings"}, "lenOf := (*strings.Builder).Len\nvar sbM strings.Builder\nsbM.WriteString(\"abcd\")", "lenOf(&sbM)"},
	{"a recovered runtime panic", nil, "var rcA any\nfunc() { defer func() { rcA = recover() }(); var m map[string]int; m[\"a\"] = 1 }()", "rcA"},
	{"recovered runtime errors", []string{"errors"}, "catchB := func(f func()) (r any) { defer func() { r = recover() }(); f(); return }\n" +
		"sB, iB, zB := []int{1, 2, 3}, 5, 0\nvar pB *struct{ X int }\nvar aB any = \"s\"\nclosedB := make(chan int)\nclose(closedB)\n" +
		"var lnB []string\nfor _, f := range []func(){func() { _ = sB[iB] }, func() { _ = sB[1:iB] }, func() { _ = pB.X }, func() { _ = aB.(int) },\n" +
		"\tfunc() { _ = 1 / zB }, func() { closedB <- 1 }, func() { panic(\"boom\") }, func() { panic(errors.New(\"bad\")) }} {\n" +
		"\tr := catchB(f)\n\tlnB = append(lnB, fmt.Sprintf(\"%T %v\", r, r))\n}", "lnB"},
	{"a recovered error's text", nil, "var rcC any\nfunc() { defer func() { rcC = recover() }(); s := []int{1, 2, 3}; i := 5; _ = s[i] }()", "rcC.(error).Error()"},
	{"recovered into an error", nil, "safeD := func() (err error) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\terr = fmt.Errorf(\"recovered: %v\", r)\n\t\t}\n\t}()\n\tvar arr []int\n\t_ = arr[3]\n\treturn nil\n}", "safeD()"},
	{"a deferred call's argument changed later", nil, "dfC := func() (r int) {\n\tx := 1\n\tdefer func(v int) { r = v }(x)\n\tx = 5\n\treturn 0\n}", "dfC()"},
	{"a blank defined at the top level", []string{"strconv"}, "_, blA := strconv.Atoi(\"x\")", "blA != nil"},
	{"a blank assigned after it", nil, "blB := func() int { return 2 }\n_ = blB()", "1"},
	{"goroutines in a loop", []string{"sync"}, "var wgA sync.WaitGroup\nvar muA sync.Mutex\ntotA := 0\nfor i := 1; i <= 100; i++ {\n\twgA.Add(1)\n\tgo func(n int) { defer wgA.Done(); muA.Lock(); totA += n; muA.Unlock() }(i)\n}\nwgA.Wait()", "totA"},
	{"closures over a loop body's variable", nil, "var fsB []func() int\nfor i := 0; i < 3; i++ {\n\tj := i * 10\n\tfsB = append(fsB, func() int { return j })\n}", "fsB[0]() + fsB[1]()"},
	{"a new name in a block", nil, "{\n\tnbA := 3\n\t_ = nbA\n}\nnbB := 1", "nbB"},
	{"a func literal called first", nil, "var flA int\nfunc() { flA = 4 }()", "flA"},
	{"a func literal called first, then a print", nil, "func() { fmt.Println(\"first\") }()\nflB := 2", "flB"},
	{"a recover that only stops the panic", nil, "rsA := func() (ok bool) {\n\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\tok = true\n\t\t}\n\t}()\n\tvar m map[string]int\n\tm[\"a\"] = 1\n\treturn false\n}", "rsA()"},
}

// slipControls are the interpreterSlips the interpreter runs right, and
// keeps.
var slipControls = []string{"a blank defined at the top level", "goroutines in a loop", "closures over a loop body's variable", "a new name in a block",
	"a func literal called first", "a func literal called first, then a print", "a recover that only stops the panic"}

// TestInterpreterSlipsRunCompiled: each of interpreterSlips gives the
// value `go run` gives, and the ones the interpreter got wrong run
// compiled (the controls stay interpreted).
func TestInterpreterSlipsRunCompiled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build for the compiled inputs")
	}
	want := goRunCases(t, interpreterSlips)
	m := newTestManager(t, nil)
	mustEval(t, m, "", "import \"fmt\"")
	for i, c := range interpreterSlips {
		res, err := m.Eval(context.Background(), "", c.input(), time.Minute)
		if err != nil {
			t.Fatalf("%s: %v (notes %v)", c.name, err, res.Notes)
		}
		if got := (goRunResult{Value: res.Value, Type: res.Type, Err: res.Err, Output: res.Output}); got != want[i] {
			t.Errorf("%s: evaluator (%s): %+v\ngo run: %+v\nnotes %v", c.name, res.Mode, got, want[i], res.Notes)
		}
		if slices.Contains(slipControls, c.name) != (res.Mode == ModeInterpreted) {
			t.Errorf("%s ran %s (notes %v)", c.name, res.Mode, res.Notes)
		}
	}
}
