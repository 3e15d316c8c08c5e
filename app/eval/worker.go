package eval

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
	"strconv"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/unrestricted"
)

// maxValueBytes caps the formatted value of the last expression.
const maxValueBytes = 64 << 10

// worker is the state of RunWorker: one interpreter and its output capture.
// It is used by one goroutine only.
type worker struct {
	in      *interp.Interpreter
	cap     *capture
	imports map[importSpec]bool // imports already done, so repeating one is harmless
}

// RunWorker hosts a yaegi interpreter for one project selection and serves
// evaluation requests read as JSON lines from in, answering each with one
// JSON line on out. State persists between evaluations. The evaluated code's
// stdout and stderr are captured per evaluation; when out is os.Stdout (the
// --eval-worker mode) os.Stdin, os.Stdout, os.Stderr and the log package's
// output are redirected for the life of the call, so that nothing but
// protocol lines reaches the real stdout. RunWorker owns the process: run it
// once per process. It returns nil when in ends, or ctx's error when ctx is
// done (checked between requests and during an evaluation).
func RunWorker(ctx context.Context, in io.Reader, out io.Writer, opts WorkerOptions) error {
	for k, v := range opts.Env {
		os.Setenv(k, v)
	}
	c, err := newCapture()
	if err != nil {
		return err
	}
	defer c.close()
	if f, ok := out.(*os.File); ok && f == os.Stdout {
		restore, err := redirectStdio(c.writer())
		if err != nil {
			return err
		}
		defer restore()
	}
	w, notes, cleanup, err := newWorker(ctx, c, opts)
	if err != nil {
		return err
	}
	defer cleanup()
	enc := json.NewEncoder(out)
	if err := enc.Encode(response{Kind: kindReady, Notes: notes}); err != nil {
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

// newWorker prepares the GOPATH tree, the interpreter and the preloads.
func newWorker(ctx context.Context, c *capture, opts WorkerOptions) (*worker, []string, func(), error) {
	gopath, notes, cleanup, err := workerGoPath(ctx, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	stdin, err := os.Open(os.DevNull)
	if err != nil {
		cleanup()
		return nil, nil, nil, fmt.Errorf("eval worker: open %s: %w", os.DevNull, err)
	}
	in := interp.New(interp.Options{
		GoPath: gopath, BuildTags: opts.Tags, Unrestricted: true,
		Stdin: stdin, Stdout: c.writer(), Stderr: c.writer(),
		Args: []string{"trestle-eval"}, Env: os.Environ(),
		SourcecodeFilesystem: newSourceFS(opts.Tags),
	})
	if err := useSymbols(in); err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	w := &worker{in: in, cap: c, imports: map[importSpec]bool{}}
	notes = append(notes, w.preload(ctx, opts.Preload)...)
	if _, _, err := c.take(); err != nil {
		notes = append(notes, err.Error())
	}
	return w, notes, func() { stdin.Close(); cleanup() }, nil
}

func useSymbols(in *interp.Interpreter) error {
	if err := in.Use(stdlib.Symbols); err != nil {
		return fmt.Errorf("eval worker: load the standard library: %w", err)
	}
	// The unrestricted symbols (os.Exit, os/exec) follow stdlib, to replace it.
	if err := in.Use(unrestricted.Symbols); err != nil {
		return fmt.Errorf("eval worker: load unrestricted symbols: %w", err)
	}
	return nil
}

// workerGoPath returns opts.GoPath, or builds a temporary tree.
func workerGoPath(ctx context.Context, opts WorkerOptions) (string, []string, func(), error) {
	if opts.GoPath != "" || opts.Root == "" {
		return opts.GoPath, nil, func() {}, nil
	}
	modCache := opts.ModCache
	if modCache == "" {
		var err error
		if modCache, err = goModCache(ctx); err != nil {
			return "", nil, nil, fmt.Errorf("eval worker: %w", err)
		}
	}
	dir, err := os.MkdirTemp("", "trestle-gopath-")
	if err != nil {
		return "", nil, nil, fmt.Errorf("eval worker: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	notes, err := BuildGoPath(ctx, dir, opts.Root, modCache)
	if err != nil {
		cleanup()
		return "", nil, nil, fmt.Errorf("eval worker: %w", err)
	}
	return dir, notes, cleanup, nil
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
	sc.Buffer(make([]byte, 64<<10), maxLine)
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return err
		}
		var req request
		resp := response{Kind: kindResult}
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
func (w *worker) evaluate(ctx context.Context, req request) response {
	start := time.Now()
	resp := response{Kind: kindResult, ID: req.ID}
	v, err := w.run(ctx, req.Code)
	if err != nil {
		resp.Error = errorText(err)
	} else {
		resp.Value, resp.Type = formatValue(v)
	}
	out, dropped, cerr := w.cap.take()
	resp.Output, resp.OutputDropped = out, dropped
	if cerr != nil {
		resp.Notes = append(resp.Notes, cerr.Error())
	}
	resp.DurationNS = time.Since(start).Nanoseconds()
	return resp
}

// run evaluates code: its imports first, then its pieces in order. The value
// is the last piece's when that piece is an expression.
func (w *worker) run(ctx context.Context, code string) (reflect.Value, error) {
	p := planInput(code)
	if p.whole {
		return w.in.EvalWithContext(ctx, code)
	}
	if err := w.importAll(ctx, p.imports); err != nil {
		return reflect.Value{}, err
	}
	var v reflect.Value
	for _, src := range p.groups {
		var err error
		if v, err = w.in.EvalWithContext(ctx, src); err != nil {
			return reflect.Value{}, err
		}
	}
	if !p.lastExpr {
		return reflect.Value{}, nil
	}
	return v, nil
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

func (w *worker) importSpec(ctx context.Context, s importSpec) error {
	if w.imports[s] {
		return nil
	}
	if _, err := w.in.EvalWithContext(ctx, s.source()); err != nil {
		return err
	}
	w.imports[s] = true
	return nil
}

// errorText renders an evaluation error; a panic says so.
func errorText(err error) string {
	var p interp.Panic
	if errors.As(err, &p) {
		return fmt.Sprintf("panic: %v", p.Value)
	}
	return err.Error()
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
	return s, v.Type().String()
}
