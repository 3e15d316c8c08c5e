package evalworker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"
)

// maxValueBytes caps the formatted value of the last expression.
const maxValueBytes = 64 << 10

// worker is the state of Run: one interpreter and its output capture.
// It is used by one goroutine only.
type worker struct {
	opts    Options
	symbols []interp.Exports
	native  map[string]bool // import paths served by linked symbols
	stdin   *os.File
	in      *interp.Interpreter
	cap     *capture
	imports map[importSpec]bool // imports already done, so repeating one is harmless
}

// Main is the whole of a worker process: it reads Options from the
// environment, serves requests on stdin and stdout with symbols linked in,
// and returns the exit code. std names the standard library the symbols
// are of ("go1.26.8"), for the ready message. The generated native worker's
// main calls it.
func Main(std string, symbols ...interp.Exports) int {
	opts, err := OptionsFromEnv()
	if err == nil {
		err = Run(context.Background(), os.Stdin, os.Stdout, opts, std, symbols...)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// Run hosts a yaegi interpreter for one project selection and serves
// evaluation requests read as JSON lines from in, answering each with one
// JSON line on out. symbols are the packages linked natively (the standard
// library first); every other import is interpreted from source under
// opts.GoPath. State persists between evaluations. The evaluated code's
// stdout and stderr are captured per evaluation; when out is os.Stdout (a
// worker process) os.Stdin, os.Stdout, os.Stderr and the log package's
// output are redirected for the life of the call, so that nothing but
// protocol lines reaches the real stdout, and the process limits of
// Options (memory, descendants) are applied. Run owns the process: run it
// once per process. It returns nil when in ends, or ctx's error when ctx is
// done (checked between requests and during an evaluation).
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options, std string, symbols ...interp.Exports) error {
	for k, v := range opts.Env {
		os.Setenv(k, v)
	}
	c, err := newCapture()
	if err != nil {
		return err
	}
	defer c.close()
	var notes []string
	if f, ok := out.(*os.File); ok && f == os.Stdout {
		notes = applyLimits(opts)
		restore, err := redirectStdio(c.writer())
		if err != nil {
			return err
		}
		defer restore()
	}
	w, err := newWorker(ctx, c, opts, symbols)
	if err != nil {
		return err
	}
	defer w.stdin.Close()
	notes = append(notes, w.preload(ctx, opts.Preload)...)
	if _, _, _, err := c.take(); err != nil {
		notes = append(notes, err.Error())
	}
	enc := json.NewEncoder(out)
	ready := Response{Kind: KindReady, Notes: notes, Native: w.nativeList(), Std: std}
	if err := enc.Encode(ready); err != nil {
		return fmt.Errorf("eval worker: write ready: %w", err)
	}
	return w.serve(ctx, in, enc)
}

// redirectStdio points os.Stdin at the null device and os.Stdout, os.Stderr
// and the standard logger at w. It returns the function that undoes it.
func redirectStdio(w *os.File) (func(), error) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return nil, fmt.Errorf("eval worker: open %s: %w", os.DevNull, err)
	}
	stdin, stdout, stderr, logOut := os.Stdin, os.Stdout, os.Stderr, log.Writer()
	os.Stdin, os.Stdout, os.Stderr = null, w, w
	log.SetOutput(w)
	return func() {
		os.Stdin, os.Stdout, os.Stderr = stdin, stdout, stderr
		log.SetOutput(logOut)
		null.Close()
	}, nil
}

// newWorker prepares the interpreter.
func newWorker(ctx context.Context, c *capture, opts Options, symbols []interp.Exports) (*worker, error) {
	stdin, err := os.Open(os.DevNull)
	if err != nil {
		return nil, fmt.Errorf("eval worker: open %s: %w", os.DevNull, err)
	}
	w := &worker{opts: opts, symbols: symbols, native: map[string]bool{}, stdin: stdin, cap: c, imports: map[importSpec]bool{}}
	for _, exp := range symbols {
		for key := range exp {
			if i := strings.LastIndexByte(key, '/'); i > 0 {
				w.native[key[:i]] = true
			}
		}
	}
	if w.in, err = w.newInterp(); err != nil {
		stdin.Close()
		return nil, err
	}
	return w, nil
}

// newInterp returns a fresh interpreter with the linked symbols: the
// worker's own, or a probe (see importSpec).
func (w *worker) newInterp() (*interp.Interpreter, error) {
	in := interp.New(interp.Options{
		GoPath: w.opts.GoPath, BuildTags: w.opts.Tags, Unrestricted: true,
		Stdin: w.stdin, Stdout: w.cap.writer(), Stderr: w.cap.interpStderr(),
		Args: []string{"trestle-eval"}, Env: os.Environ(),
		SourcecodeFilesystem: newSourceFS(w.opts.Tags),
	})
	hasOS := false
	for _, exp := range w.symbols {
		if err := in.Use(exp); err != nil {
			return nil, fmt.Errorf("eval worker: load the linked packages: %w", err)
		}
		_, ok := exp["os/os"]
		hasOS = hasOS || ok
	}
	if hasOS {
		// yaegi makes the interpreted os.Stderr its Stderr only when that
		// is an *os.File; interpStderr is not, so the code's os.Stderr is
		// the capture's file, as its os.Stdout is.
		stderr := w.cap.writer()
		if err := in.Use(interp.Exports{"os/os": {"Stderr": reflect.ValueOf(&stderr).Elem()}}); err != nil {
			return nil, fmt.Errorf("eval worker: point os.Stderr at the output: %w", err)
		}
	}
	return in, nil
}

// nativeList is the linked import paths outside the standard library.
func (w *worker) nativeList() []string {
	var out []string
	for p := range w.native {
		if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") || (w.opts.Module != "" && (p == w.opts.Module || strings.HasPrefix(p, w.opts.Module+"/"))) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// preload imports the selection's packages, noting the ones that fail.
func (w *worker) preload(ctx context.Context, paths []string) []string {
	var notes []string
	for _, p := range paths {
		if err := w.importSpec(ctx, importSpec{path: p}); err != nil {
			notes = append(notes, fmt.Sprintf("preload %s: %v", p, err))
		}
	}
	return notes
}

// serve answers requests until in ends or ctx is done.
func (w *worker) serve(ctx context.Context, in io.Reader, enc *json.Encoder) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return err
		}
		var req Request
		resp := Response{Kind: KindResult}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			resp.Error = fmt.Sprintf("eval worker: bad request line: %v", err)
		} else {
			resp = w.evaluate(ctx, req)
		}
		if err := enc.Encode(resp); err != nil {
			return fmt.Errorf("eval worker: write result: %w", err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("eval worker: read requests: %w", err)
	}
	return ctx.Err()
}

// evaluate runs one request and collects its output.
func (w *worker) evaluate(ctx context.Context, req Request) Response {
	start := time.Now()
	resp := Response{Kind: KindResult, ID: req.ID}
	v, defines, err := w.run(ctx, req.Code)
	if err != nil {
		var note string
		resp.Error, note = errorText(err)
		if note != "" {
			resp.Notes = append(resp.Notes, note)
		}
	} else {
		resp.Value, resp.Type = formatValue(v)
		resp.Defines = defines
	}
	resp.Output, resp.OutputDropped, resp.Trace, err = w.cap.take()
	if err != nil {
		resp.Notes = append(resp.Notes, err.Error())
	}
	resp.DurationNS = time.Since(start).Nanoseconds()
	return resp
}

// run evaluates code: its imports first, then its pieces in order. The value
// is the last piece's when that piece is an expression. defines says
// whether the input declared, assigned or imported something.
func (w *worker) run(ctx context.Context, code string) (v reflect.Value, defines bool, err error) {
	p := planInput(code)
	if p.whole {
		v, err = w.in.EvalWithContext(ctx, code)
		return v, true, err
	}
	if err := w.importAll(ctx, p.imports); err != nil {
		return reflect.Value{}, false, err
	}
	for _, g := range p.groups {
		if v, err = w.in.EvalWithContext(ctx, g.src); err != nil {
			return reflect.Value{}, false, inputPositions(err, g.kind, g.lead)
		}
	}
	if !p.lastExpr || w.callsWithoutResults(ctx, p.lastCallee) {
		v = reflect.Value{}
	}
	if p.lastDeref && !v.IsValid() {
		return v, p.defines, errNilDeref
	}
	return v, p.defines, nil
}

// callsWithoutResults reports whether callee, the source of the function
// the input's last expression calls, is a function that returns nothing:
// then the call has no value, whatever yaegi returned for it (after a call
// of a linked function without results it returns a leftover value, e.g.
// "<nil> (func(time.Duration))" for time.Sleep). A conversion keeps its
// value: yaegi gives the name of a func type as a nil func.
func (w *worker) callsWithoutResults(ctx context.Context, callee string) bool {
	if callee == "" {
		return false
	}
	f, err := w.in.EvalWithContext(ctx, callee)
	return err == nil && f.IsValid() && f.Kind() == reflect.Func && !f.IsNil() && f.Type().NumOut() == 0
}

// importAll evaluates import declarations one spec at a time, skipping the
// ones already imported (yaegi refuses to import a package twice).
func (w *worker) importAll(ctx context.Context, decls []string) error {
	if len(decls) == 0 {
		return nil
	}
	specs, err := parseImports(decls)
	if err != nil {
		return err
	}
	for _, s := range specs {
		if err := w.importSpec(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// importSpec imports one package. A package that is not linked is first
// imported into a throwaway probe interpreter: yaegi keeps half-imported
// packages after a failure (the next import then answers "import cycle not
// allowed" and calls into the package panic), so a failure must never
// reach the worker's own interpreter. The probe was chosen over restarting
// the interpreter and replaying the inputs because a replay runs the
// person's code twice (a bbolt Open of the same file then waits forever on
// its own lock); the probe only runs the imported packages' init twice.
func (w *worker) importSpec(ctx context.Context, s importSpec) error {
	if w.imports[s] {
		return nil
	}
	if !w.native[s.path] && !w.importedAsSource(s.path) {
		probe, err := w.newInterp()
		if err != nil {
			return err
		}
		if _, err := probe.EvalWithContext(ctx, importSpec{name: "_", path: s.path}.source()); err != nil {
			var p interp.Panic
			if errors.As(err, &p) { // the interpreter itself panicked on the package: say where
				return fmt.Errorf("import %q: import %q error: the interpreter panicked: %v", s.path, s.path, p.Value)
			}
			return fmt.Errorf("import %q: %w", s.path, err)
		}
	}
	if _, err := w.in.EvalWithContext(ctx, s.source()); err != nil {
		return err
	}
	w.imports[s] = true
	return nil
}

// importedAsSource reports whether path was imported before (under any
// name), so the probe has nothing to learn.
func (w *worker) importedAsSource(path string) bool {
	for s := range w.imports {
		if s.path == path {
			return true
		}
	}
	return false
}

// errorText renders an evaluation error; a panic reads as go run prints
// it, with the frames of the linked packages it passed through
// (panicFrames). note, when not "", says what the interpreter could not
// tell (indexPanic).
func errorText(err error) (text, note string) {
	var p interp.Panic
	if !errors.As(err, &p) {
		return err.Error(), ""
	}
	if goText, ok := indexPanic(p.Value, p.Callers); ok {
		return "panic: " + goText, indexNote
	}
	return "panic: " + panicValue(p.Value) + panicFrames(p.Callers), ""
}

// panicFrames is the stack of a panic inside linked code (a dependency's,
// the project's native packages', the standard library's) as go run shows
// it, without the frames of the runtime, reflect, the interpreter, the
// worker and the generated symbol tables' wrappers; "" when none is left
// (the panic was the interpreted code's own: yaegi's frames are not Go's).
func panicFrames(pcs []uintptr) string {
	if len(pcs) == 0 {
		return ""
	}
	var all []runtime.Frame
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		all = append(all, f)
		if !more {
			break
		}
	}
	// What called the interpreter (the worker's loop) is below its last frame.
	for i := len(all) - 1; i >= 0; i-- {
		if strings.HasPrefix(all[i].Function, yaegiPkg) {
			all = all[:i+1]
			break
		}
	}
	var b strings.Builder
	for _, f := range all {
		if f.Function != "" && !evaluatorFrame(f.Function) {
			fmt.Fprintf(&b, "\n%s(...)\n\t%s:%d", f.Function, f.File, f.Line)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n\ngoroutine 1 [running]:" + b.String()
}

const yaegiPkg = "github.com/traefik/yaegi/"

// evaluatorFrame reports whether a function is the evaluator's machinery
// rather than code the input called.
func evaluatorFrame(fn string) bool {
	for _, prefix := range []string{"runtime.", "reflect.", yaegiPkg, "main.", "trestle/"} {
		if strings.HasPrefix(fn, prefix) {
			return true
		}
	}
	return strings.Contains(fn, ".(*_") || strings.Contains(fn, "._") // extract's wrapper types
}

// anyPtr is the type yaegi returns for a declaration or a call without results.
var anyPtr = reflect.TypeOf((*any)(nil))

// formatValue renders a REPL value: strings quoted, structs with field names.
func formatValue(v reflect.Value) (value, typ string) {
	if !v.IsValid() || v.Type() == anyPtr || !v.CanInterface() {
		return "", ""
	}
	var s string
	switch x := v.Interface().(type) {
	case string:
		s = strconv.Quote(x)
	case error:
		s = fmt.Sprintf("%v", x) // fmt recovers a panicking Error method
	default:
		s = fmt.Sprintf("%+v", x)
	}
	if len(s) > maxValueBytes {
		s = s[:maxValueBytes] + fmt.Sprintf("… (%d more bytes)", len(s)-maxValueBytes)
	}
	t := v.Type()
	if v.Kind() == reflect.Interface && !v.IsNil() {
		t = v.Elem().Type() // the dynamic type, as compiled input's %T gives it
	}
	return s, t.String()
}
