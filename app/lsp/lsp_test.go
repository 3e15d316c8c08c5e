package lsp

import (
	"context"
	"errors"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"trestle/internal/testfix"
)

// These tests run the real gopls. Without it they skip, except under CI,
// where scripts/deps.sh installs it and its absence is a failure.

// wait bounds every condition wait: gopls on a loaded two-core machine is slow.
const wait = 3 * time.Minute

func needGopls(t testing.TB) {
	t.Helper()
	_, err := Find(context.Background(), "")
	testfix.Need(t, "gopls", err)
}

// copyFixture copies testdata/fixture into a fresh folder, a module of its own.
func copyFixture(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.Walk("testdata/fixture", func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("testdata/fixture", p)
		rel = strings.TrimSuffix(rel, ".txt")
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func testLogger(t testing.TB) *log.Logger {
	return log.New(testWriter{t}, "", 0)
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(b []byte) (int, error) {
	if testing.Verbose() {
		w.t.Log(strings.TrimSpace(string(b)))
	}
	return len(b), nil
}

func newClient(t testing.TB, root string, cfg Config) *Client {
	t.Helper()
	needGopls(t)
	cfg.Root = root
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	c := New(cfg)
	t.Cleanup(func() { c.Close() })
	return c
}

// posOf is the position of the nth (0-based) occurrence of needle in the
// file rel under root, plus skip runes.
func posOf(t testing.TB, root, rel, needle string, nth, skip int) Position {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return posIn(t, string(b), needle, nth, skip)
}

func posIn(t testing.TB, text, needle string, nth, skip int) Position {
	t.Helper()
	off := -1
	for i := 0; i <= nth; i++ {
		j := strings.Index(text[off+1:], needle)
		if j < 0 {
			t.Fatalf("%q occurs fewer than %d times", needle, nth+1)
		}
		off += 1 + j
	}
	line := strings.Count(text[:off], "\n") + 1
	col := utf8.RuneCountInString(text[strings.LastIndex(text[:off], "\n")+1:off]) + 1
	return Position{Line: line, Col: col + skip}
}

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	t.Cleanup(cancel)
	return ctx
}

// waitFor polls cond until it holds or the bound passes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	testfix.Wait(t, wait, what, cond, testfix.Every(20*time.Millisecond))
}

func TestDiagnosticsForUnsavedEdit(t *testing.T) {
	root := copyFixture(t)
	changed := make(chan string, 64)
	c := newClient(t, root, Config{OnDiagnostics: func(p string) {
		select {
		case changed <- p:
		default:
		}
	}})
	disk, _ := os.ReadFile(filepath.Join(root, "main.go"))
	edited := strings.Replace(string(disk), "sq := shapes.NewSquare(2)", "sq := shapes.NewSquare(2) + undefinedVar", 1)
	c.OpenDocument("main.go", edited)
	c.Start()
	want := posIn(t, edited, "undefinedVar", 0, 0)
	waitFor(t, "a diagnostic for undefinedVar", func() bool {
		for _, d := range c.Diagnostics("main.go") {
			if strings.Contains(d.Message, "undefinedVar") && d.Range.Start == want && d.Severity == "error" {
				return true
			}
		}
		return false
	})
	if got, _ := os.ReadFile(filepath.Join(root, "main.go")); string(got) != string(disk) {
		t.Fatal("the unsaved edit reached the disk")
	}
	c.OpenDocument("main.go", string(disk)) // the person undoes it
	waitFor(t, "the diagnostic to clear", func() bool { return len(c.Diagnostics("main.go")) == 0 })
	if len(changed) == 0 {
		t.Error("OnDiagnostics was never called")
	}
}

// shared is one gopls on one fixture copy for the read-only tests.
var shared struct {
	once sync.Once
	root string
	c    *Client
}

func sharedClient(t *testing.T) (*Client, string) {
	needGopls(t)
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "trestle-lsp-fixture-")
		if err != nil {
			t.Fatal(err)
		}
		src := copyFixture(t)
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		shared.root = dir
		shared.c = New(Config{Root: dir, Logger: log.New(os.Stderr, "shared gopls: ", 0)})
	})
	if shared.c == nil {
		t.Fatal("the shared client failed to start")
	}
	return shared.c, shared.root
}

func TestMain(m *testing.M) {
	code := testfix.RunIsolated(m)
	if shared.c != nil {
		shared.c.Close()
		os.RemoveAll(shared.root)
	}
	os.Exit(code)
}

func TestDefinition(t *testing.T) {
	c, root := sharedClient(t)
	locs, err := c.Definition(ctxFor(t), "main.go", posOf(t, root, "main.go", "NewSquare", 0, 2))
	if err != nil {
		t.Fatal(err)
	}
	want := posOf(t, root, "shapes/shapes.go", "NewSquare(side", 0, 0)
	if len(locs) != 1 || locs[0].Path != "shapes/shapes.go" || locs[0].Range.Start != want {
		t.Fatalf("definition of NewSquare = %+v, want shapes/shapes.go at %+v", locs, want)
	}
}

func TestReferences(t *testing.T) {
	c, root := sharedClient(t)
	locs, err := c.References(ctxFor(t), "shapes/shapes.go", posOf(t, root, "shapes/shapes.go", "NewSquare(side", 0, 0), false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Position{posOf(t, root, "main.go", "NewSquare", 0, 0), posOf(t, root, "main.go", "NewSquare", 1, 0)}
	if len(locs) != 2 || locs[0].Path != "main.go" || locs[0].Range.Start != want[0] || locs[1].Range.Start != want[1] {
		t.Fatalf("references of NewSquare = %+v, want main.go at %+v", locs, want)
	}
}

func TestHover(t *testing.T) {
	c, root := sharedClient(t)
	h, err := c.Hover(ctxFor(t), "main.go", posOf(t, root, "main.go", "NewSquare", 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Text, "NewSquare(side float64) shapes.Square") || !strings.Contains(h.Text, "returns a square with the given side") {
		t.Fatalf("hover = %q, want the signature and the doc", h.Text)
	}
	if h.Range == nil || h.Range.Start != posOf(t, root, "main.go", "NewSquare", 0, 0) {
		t.Fatalf("hover range = %+v", h.Range)
	}
}

func TestCompletion(t *testing.T) {
	root := copyFixture(t)
	c := newClient(t, root, Config{})
	disk, _ := os.ReadFile(filepath.Join(root, "main.go"))
	edited := strings.Replace(string(disk), "fmt.Println(", "sq.Ar\n\tfmt.Println(", 1)
	c.OpenDocument("main.go", edited)
	at := posIn(t, edited, "sq.Ar", 0, len("sq.Ar"))
	items, err := c.Completions(ctxFor(t), "main.go", at)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) == 0 || items[0].Label != "Area" || items[0].Kind != "method" {
		t.Fatalf("completions at sq.Ar| = %+v, want Area (method) first", items)
	}
	if r := items[0].Replace; r.Start != (Position{Line: at.Line, Col: at.Col - 2}) || r.End != at {
		t.Fatalf("completion replaces %+v, want the typed prefix Ar before %+v", r, at)
	}
}

func TestSymbols(t *testing.T) {
	c, root := sharedClient(t)
	syms, err := c.Symbols(ctxFor(t), "Square")
	if err != nil {
		t.Fatal(err)
	}
	want := posOf(t, root, "shapes/shapes.go", "Square struct", 0, 0)
	for _, s := range syms {
		if s.Name == "Square" && s.Kind == "struct" && s.Path == "shapes/shapes.go" && s.Line == want.Line {
			return
		}
	}
	t.Fatalf("symbols for Square = %+v, want the struct at shapes/shapes.go:%d", syms, want.Line)
}

func TestLocateAndPackageAPI(t *testing.T) {
	c, root := sharedClient(t)
	ctx := ctxFor(t)
	for _, name := range []string{"Square.Area", "(Square).Area", "(*Square).Area"} {
		p, err := c.Locate(ctx, "shapes/shapes.go", name)
		if want := posOf(t, root, "shapes/shapes.go", "Area() float64 {", 0, 0); err != nil || p != want {
			t.Errorf("Locate(%q) = %+v, %v; want %+v", name, p, err, want)
		}
	}
	if _, err := c.Locate(ctx, "shapes/shapes.go", "Nope"); err == nil || !strings.Contains(err.Error(), "NewSquare") {
		t.Errorf("Locate of a missing name: %v, want an error listing the file's names", err)
	}
	api, err := c.PackageAPI(ctx, "shapes/shapes.go")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, s := range api.Symbols {
		names[s.Name] = true
	}
	for _, n := range []string{"Shape", "Square", "NewSquare", "Total"} {
		if !names[n] {
			t.Errorf("package API lacks %s: %+v", n, api.Symbols)
		}
	}
	if names["unexported"] || api.Name != "shapes" {
		t.Errorf("package API %q has unexported names: %+v", api.Name, api.Symbols)
	}
}

// TestRenameBuilds renames across packages and builds the result.
func TestRenameBuilds(t *testing.T) {
	c, root := sharedClient(t)
	edits, err := c.Rename(ctxFor(t), "shapes/shapes.go", posOf(t, root, "shapes/shapes.go", "NewSquare(side", 0, 0), "MakeSquare")
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != 2 || edits[0].Path != "main.go" || edits[1].Path != "shapes/shapes.go" {
		t.Fatalf("rename touches %+v, want main.go and shapes/shapes.go", edits)
	}
	out := t.TempDir()
	if err := os.CopyFS(out, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		if strings.Contains(e.New, "NewSquare") || !strings.Contains(e.New, "MakeSquare") {
			t.Errorf("%s after rename:\n%s", e.Path, e.New)
		}
		os.WriteFile(filepath.Join(out, e.Path), []byte(e.New), 0o644)
	}
	if b, err := goCmd(out, "build", "./...").CombinedOutput(); err != nil {
		t.Fatalf("the renamed module does not build: %v\n%s", err, b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "main.go")); !strings.Contains(string(b), "NewSquare") {
		t.Fatal("Rename wrote to the project")
	}
}

func goCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	return cmd
}

// TestKilledMidRequestRestarts kills gopls while requests are in flight:
// the client restarts it and keeps answering.
func TestKilledMidRequestRestarts(t *testing.T) {
	root := copyFixture(t)
	var mu sync.Mutex
	var states []State
	c := newClient(t, root, Config{OnStatus: func(s Status) {
		mu.Lock()
		states = append(states, s.State)
		mu.Unlock()
	}})
	ctx := ctxFor(t)
	pos := posOf(t, root, "main.go", "NewSquare", 0, 1)
	if _, err := c.Hover(ctx, "main.go", pos); err != nil {
		t.Fatal(err)
	}
	pid := c.PID()
	results := make(chan error, 8)
	for range 4 {
		go func() {
			_, err := c.Hover(ctx, "main.go", pos)
			results <- err
		}()
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for range 4 { // each either answered (retried on the new gopls) or said what happened
		if err := <-results; err != nil && !strings.Contains(err.Error(), "restart") {
			t.Errorf("a request during the kill failed without saying why: %v", err)
		}
	}
	h, err := c.Hover(ctx, "main.go", pos)
	if err != nil || !strings.Contains(h.Text, "NewSquare") {
		t.Fatalf("after the kill: %+v, %v", h, err)
	}
	if c.PID() == pid || c.Status().Restarts < 1 {
		t.Fatalf("gopls was not restarted: pid %d (was %d), %+v", c.PID(), pid, c.Status())
	}
	mu.Lock()
	defer mu.Unlock()
	if !containsState(states, StateRestarting) || states[len(states)-1] != StateReady {
		t.Fatalf("states %v, want restarting then ready", states)
	}
}

func containsState(ss []State, s State) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestHungGoplsIsKilled freezes gopls (SIGSTOP): requests give up at their
// deadline, the watch kills it, and a new one answers.
func TestHungGoplsIsKilled(t *testing.T) {
	root := copyFixture(t)
	c := newClient(t, root, Config{HangAfter: 3 * time.Second})
	ctx := ctxFor(t)
	pos := posOf(t, root, "main.go", "NewSquare", 0, 1)
	if _, err := c.Hover(ctx, "main.go", pos); err != nil {
		t.Fatal(err)
	}
	pid := c.PID()
	syscall.Kill(pid, syscall.SIGSTOP)
	short, cancel := context.WithTimeout(ctx, time.Second)
	start := time.Now()
	_, err := c.Hover(short, "main.go", pos)
	cancel()
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("a request to a frozen gopls: %v, want a deadline error", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the request waited %s past its 1s deadline", d)
	}
	waitFor(t, "the frozen gopls to be replaced", func() bool { p := c.PID(); return p != 0 && p != pid })
	if h, err := c.Hover(ctx, "main.go", pos); err != nil || !strings.Contains(h.Text, "NewSquare") {
		t.Fatalf("after the restart: %+v, %v", h, err)
	}
}

func TestFindMissingSaysHowToInstall(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	t.Setenv("GOPATH", empty)
	_, err := Find(context.Background(), filepath.Join(empty, "bin"))
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), "go install golang.org/x/tools/gopls@"+GoplsVersion) {
		t.Fatalf("Find without gopls: %v", err)
	}
	os.WriteFile(filepath.Join(empty, "x.go"), []byte("package x\n"), 0o644)
	c := New(Config{Root: empty, Find: func(ctx context.Context) (string, error) { return Find(ctx, "") }})
	defer c.Close()
	_, err = c.Hover(context.Background(), "x.go", Position{Line: 1, Col: 1})
	if err == nil || !strings.Contains(err.Error(), "go install") {
		t.Fatalf("a request without gopls: %v, status %+v", err, c.Status())
	}
	// The request hears of the failed start as the session ends; the
	// status follows a moment later, on the session's goroutine.
	waitFor(t, "the failed state", func() bool { return c.Status().State == StateFailed && c.Status().Missing })
}

// TestSilentServerNeverBlocks starts a "gopls" that never answers
// initialize: a request gives up at its deadline, and Close returns at
// once instead of waiting out the start bound.
func TestSilentServerNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "gopls")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexec sleep 600\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "x.go"), []byte("package x\n"), 0o644)
	c := New(Config{Root: dir, Find: func(context.Context) (string, error) { return fake, nil }})
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Hover(ctx, "x.go", Position{Line: 1, Col: 1})
	if err == nil || !strings.Contains(err.Error(), "still starting") || time.Since(start) > 5*time.Second {
		t.Fatalf("a request to a silent server: %v after %s", err, time.Since(start))
	}
	if st := c.Status().State; st != StateStarting {
		t.Fatalf("state %s, want starting", st)
	}
	start = time.Now()
	c.Close()
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %s with a server stuck in initialize", d)
	}
}

func TestSignatureHelp(t *testing.T) {
	root := copyFixture(t)
	c := newClient(t, root, Config{})
	disk, _ := os.ReadFile(filepath.Join(root, "main.go"))
	edited := strings.Replace(string(disk), "fmt.Println(", "shapes.NewSquare(\n\tfmt.Println(", 1)
	c.OpenDocument("main.go", edited)
	sig, err := c.SignatureHelp(ctxFor(t), "main.go", posIn(t, edited, "NewSquare(", 1, len("NewSquare(")))
	if err != nil || !strings.Contains(sig.Label, "NewSquare(side float64) shapes.Square") || !strings.Contains(sig.Doc, "returns a square") || sig.Param != "side float64" {
		t.Fatalf("signature in NewSquare(|: %+v, %v", sig, err)
	}
}
