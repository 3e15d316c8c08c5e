package mcpbridge

import (
	"context"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/lsp"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/app/workbench"
	"trestle/internal/testfix"
)

// These run the real gopls on a small module; without gopls they skip,
// except under CI, where scripts/deps.sh installs it.

var goplsModule = map[string]string{
	"go.mod": "module example.com/fixture\n\ngo 1.22\n",
	"shapes/shapes.go": `// Package shapes is the fixture's library.
package shapes

// Square is a square.
type Square struct {
	Side float64
}

// Area is the square's area.
func (s Square) Area() float64 { return s.Side * s.Side }

// NewSquare returns a square with the given side.
func NewSquare(side float64) Square {
	return Square{Side: side}
}

func helper() {}
`,
	"main.go": `package main

import (
	"fmt"

	"example.com/fixture/shapes"
)

func main() {
	sq := shapes.NewSquare(2)
	fmt.Println(sq.Area(), shapes.NewSquare(3).Area())
}
`,
}

func needGopls(t *testing.T) {
	t.Helper()
	_, err := lsp.Find(context.Background(), "")
	testfix.Need(t, "gopls", err)
}

// goplsServices writes the fixture module into a project and returns the
// project with services that include a real gopls and change sets.
func goplsServices(t *testing.T) (*project.Project, services.Services) {
	t.Helper()
	needGopls(t)
	dir := t.TempDir()
	for name, text := range goplsModule {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	proj, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	c := lsp.New(lsp.Config{Root: proj.Root, Logger: log.New(io.Discard, "", 0)})
	t.Cleanup(func() { c.Close() })
	return proj, services.Services{LSP: c, ChangeSets: changeset.NewManager(db, proj)}
}

func TestGoplsToolsHeadless(t *testing.T) {
	project, sv := goplsServices(t)
	c := connectStdio(t, NewServer(testAgent(project, nil, sv), quiet()), "gopls-test")

	// The answers are text only, sent once: every fact the structured
	// content carried (path, 1-based line and column, the declaration's
	// last line, kind, container, count, what was left off) is in the text.
	t.Run("symbols", func(t *testing.T) {
		res, _ := callTool(t, c, "trestle_symbols", map[string]any{"query": "NewSquare"})
		want := "1 symbol matches \"NewSquare\":\nshapes/shapes.go:13:6: function NewSquare (in example.com/fixture/shapes)\n"
		if text := textOf(res); res.IsError || !strings.HasPrefix(text, want) || res.StructuredContent != nil {
			t.Fatalf("symbols: want text starting %q, got %q (structured %v)", want, text, res.StructuredContent)
		}
	})
	t.Run("definition by symbol", func(t *testing.T) {
		res, _ := callTool(t, c, "trestle_definition", map[string]any{"path": "main.go", "symbol": "shapes.NewSquare"})
		want := "shapes/shapes.go:13:6 (lines 13-15):\nfunc NewSquare(side float64) Square {\n\treturn Square{Side: side}\n}\n"
		if text := textOf(res); res.IsError || text != want || res.StructuredContent != nil {
			t.Fatalf("definition of NewSquare: want %q, got %q (structured %v)", want, text, res.StructuredContent)
		}
	})
	t.Run("definition by position", func(t *testing.T) {
		res, _ := callTool(t, c, "trestle_definition", map[string]any{"path": "main.go", "line": 11, "column": 18})
		if text := textOf(res); !strings.HasPrefix(text, "shapes/shapes.go:10:17:\nfunc (s Square) Area() float64 {") {
			t.Fatalf("definition of Area at main.go:11:18: %q", text)
		}
	})
	t.Run("references", func(t *testing.T) {
		res, _ := callTool(t, c, "trestle_references", map[string]any{"path": "shapes/shapes.go", "symbol": "NewSquare"})
		want := "2 references:\nmain.go:10:15: sq := shapes.NewSquare(2)\nmain.go:11:"
		if text := textOf(res); res.IsError || !strings.HasPrefix(text, want) || strings.Count(text, "\n") != 3 || res.StructuredContent != nil {
			t.Fatalf("references: want 2 lines after %q, got %q (structured %v)", want, text, res.StructuredContent)
		}
		res, _ = callTool(t, c, "trestle_references", map[string]any{"path": "shapes/shapes.go", "symbol": "NewSquare", "limit": 1})
		want = "2 references:\nmain.go:10:15: sq := shapes.NewSquare(2)\n(1 more left off: raise limit, now 1, up to 2000)\n"
		if text := textOf(res); text != want {
			t.Fatalf("references with limit 1: want %q, got %q", want, text)
		}
	})
	t.Run("one reads as one", func(t *testing.T) { // "1 references", "1 symbol match"
		res, _ := callTool(t, c, "trestle_references", map[string]any{"path": "main.go", "line": 10, "column": 2})
		if text := textOf(res); !strings.HasPrefix(text, "1 reference:\nmain.go:11:14: ") {
			t.Errorf("the one reference of sq reads:\n%s", text)
		}
		res, _ = callTool(t, c, "trestle_symbols", map[string]any{"query": "NewSquare", "limit": 1})
		if text := textOf(res); !strings.HasPrefix(text, "1 symbol matches \"NewSquare\":\n") {
			t.Errorf("one symbol reads:\n%s", text)
		}
	})
	t.Run("package api", func(t *testing.T) {
		res, _ := callTool(t, c, "trestle_package_api", map[string]any{"package": "shapes"})
		out := textOf(res)
		// The text is the whole answer, sent once (no structured content).
		if res.IsError || !strings.HasPrefix(out, "package shapes (shapes), 1 file in shapes\n") || res.StructuredContent != nil {
			t.Fatalf("package api: %q, structured %v", out, res.StructuredContent)
		}
		t.Log(out)
		for _, want := range []string{"func NewSquare(side float64) Square", "type Square struct", "Area"} {
			if !strings.Contains(out, want) {
				t.Errorf("package API text lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(out, "helper") {
			t.Errorf("package API lists an unexported name:\n%s", out)
		}
		res, _ = callTool(t, c, "trestle_package_api", map[string]any{"package": "strings"})
		if res.IsError || !strings.Contains(textOf(res), "func Contains(s string, substr string) bool") &&
			!strings.Contains(textOf(res), "func Contains(s, substr string) bool") {
			t.Errorf("package API of strings:\n%s", textOf(res))
		}
	})
	t.Run("rename proposes, applies and builds", func(t *testing.T) {
		res, sc := callTool(t, c, "trestle_rename", map[string]any{"path": "shapes/shapes.go", "symbol": "NewSquare", "new_name": "MakeSquare"})
		if res.IsError {
			t.Fatalf("rename: %v", textOf(res))
		}
		id, _ := sc["id"].(string)
		files, _ := sc["files"].([]any)
		if id == "" || len(files) != 2 {
			t.Fatalf("rename change set: %v", sc)
		}
		if b, _ := os.ReadFile(filepath.Join(project.Root, "main.go")); !strings.Contains(string(b), "NewSquare") {
			t.Fatal("trestle_rename wrote a file")
		}
		disk := workbench.Reader{Project: project}.Func(context.Background())
		if _, err := sv.ChangeSets.Apply(id, nil, disk, nil); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "build", "./...")
		cmd.Dir = project.Root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the applied rename does not build: %v\n%s", err, b)
		}
		for _, f := range []string{"main.go", "shapes/shapes.go"} {
			if b, _ := os.ReadFile(filepath.Join(project.Root, f)); strings.Contains(string(b), "NewSquare") {
				t.Errorf("%s still says NewSquare", f)
			}
		}
	})
	t.Run("bad arguments", func(t *testing.T) {
		for _, args := range []map[string]any{
			{"path": "../x.go", "symbol": "A"},
			{"path": "main.go", "symbol": "NoSuchName"},
			{"path": "go.mod", "symbol": "A"},
		} {
			if res, _ := callTool(t, c, "trestle_definition", args); !res.IsError {
				t.Errorf("definition %v: want an error, got %s", args, textOf(res))
			}
		}
		if res, _ := callTool(t, c, "trestle_rename", map[string]any{"path": "main.go", "symbol": "main", "new_name": "1x"}); !res.IsError {
			t.Error("rename to a non-identifier was accepted")
		}
	})
}

// unsavedWindow is a window whose one open editor holds unsaved text.
type unsavedWindow struct {
	definitionsOnly
	path, text string
}

func (w unsavedWindow) Tabs(context.Context) ([]workbench.Tab, error) {
	return []workbench.Tab{{Path: w.path, Active: true, Dirty: true}}, nil
}

func (w unsavedWindow) Buffer(_ context.Context, cp project.Path) (string, bool, bool, error) {
	if cp.Rel() == w.path {
		return w.text, true, true, nil
	}
	return "", false, false, nil
}

// TestDiagnosticsIncludeGoplsForUnsavedText: a type error that exists only
// in the editor's unsaved text shows in trestle_diagnostics, labelled gopls.
func TestDiagnosticsIncludeGoplsForUnsavedText(t *testing.T) {
	project, sv := goplsServices(t)
	sv.Eval = eval.NewManager(eval.ManagerOptions{Root: project.Root})
	sv.Tasks = task.NewRunner(project.Root)
	t.Cleanup(sv.Eval.Close)
	edited := strings.Replace(goplsModule["main.go"], "sq := shapes.NewSquare(2)", "sq := shapes.NewSquare(2) + undefinedVar", 1)
	win := unsavedWindow{path: "main.go", text: edited}
	c := connectStdio(t, NewServer(testAgent(project, win, sv), quiet()), "diag-test")
	// gopls may still be loading the module: ask again until it has diagnosed
	// the unsaved text, within a bound generous for a loaded machine.
	var live []any
	testfix.WaitFor(t, time.Minute, "live diagnostics for the unsaved type error", func() (string, bool) {
		res, sc := callTool(t, c, "trestle_diagnostics", map[string]any{})
		if res.IsError {
			t.Fatalf("diagnostics: %s", textOf(res))
		}
		live, _ = sc["live"].([]any)
		return textOf(res), len(live) > 0
	}, testfix.Every(50*time.Millisecond))
	p := live[0].(map[string]any)
	if p["path"] != "main.go" || p["line"] != float64(10) || p["source"] != "gopls" || !strings.Contains(p["message"].(string), "undefinedVar") {
		t.Fatalf("live problem: %v", p)
	}
}

// TestPackageAPIChangesNoModule: an agent naming a package the module does
// not have cannot make the go command add it to go.mod or download it,
// even with GOFLAGS=-mod=mod in the environment.
func TestPackageAPIChangesNoModule(t *testing.T) {
	t.Setenv("GOFLAGS", "-mod=mod")
	project, sv := goplsServices(t)
	c := connectStdio(t, NewServer(testAgent(project, nil, sv), quiet()), "api-test")
	before, _ := os.ReadFile(filepath.Join(project.Root, "go.mod"))
	res, _ := callTool(t, c, "trestle_package_api", map[string]any{"package": "golang.org/x/mod/semver"})
	if !res.IsError || !strings.HasPrefix(textOf(res), "none") {
		t.Fatalf("package the module lacks: %s", textOf(res))
	}
	after, _ := os.ReadFile(filepath.Join(project.Root, "go.mod"))
	if string(after) != string(before) {
		t.Fatalf("go.mod changed:\n%s", after)
	}
	if _, err := os.Stat(filepath.Join(project.Root, "go.sum")); err == nil {
		t.Fatal("go.sum was written")
	}
}

// TestRenameKeepsUnsavedEditorText: in the window, the rename is computed
// on the open editor's unsaved text, which the proposal keeps (a rename
// computed from disk would propose dropping the person's edit).
func TestRenameKeepsUnsavedEditorText(t *testing.T) {
	project, sv := goplsServices(t)
	edited := strings.Replace(goplsModule["main.go"], "func main() {", "func main() {\n\tbig := shapes.NewSquare(100) // unsaved\n\t_ = big", 1)
	win := unsavedWindow{path: "main.go", text: edited}
	c := connectStdio(t, NewServer(testAgent(project, win, sv), quiet()), "rename-test")
	res, sc := callTool(t, c, "trestle_rename", map[string]any{"path": "shapes/shapes.go", "symbol": "NewSquare", "new_name": "MakeSquare"})
	if res.IsError {
		t.Fatalf("rename: %s", textOf(res))
	}
	cs, err := sv.ChangeSets.Full(sc["id"].(string)) // with the file bodies
	if err != nil {
		t.Fatal(err)
	}
	var mainNew string
	for _, f := range cs.Files {
		if f.Path == "main.go" {
			if f.Base != edited {
				t.Errorf("main.go's base is not the editor's text:\n%s", f.Base)
			}
			mainNew = f.New
		}
	}
	want := strings.ReplaceAll(edited, "NewSquare", "MakeSquare")
	if mainNew != want {
		t.Fatalf("main.go after the proposed rename:\n%s\nwant:\n%s", mainNew, want)
	}
}

// TestReferencesReadEachFileOnce: trestle_references reads each file its
// answer names once, however many references it holds (main.go has two
// uses of NewSquare; before, it was read and hashed once per reference).
func TestReferencesReadEachFileOnce(t *testing.T) {
	proj, sv := goplsServices(t)
	srv := NewServer(testAgent(proj, nil, sv), quiet())
	ctx := context.Background()
	args := referencesParams{Path: "shapes/shapes.go", Line: 13, Column: 6}
	if res := srv.references(ctx, args); res.IsError { // gopls loads the module
		t.Fatal(textOf(res))
	}
	before := proj.Resolutions()
	res := srv.references(ctx, args)
	if res.IsError || !strings.Contains(textOf(res), "2 references") {
		t.Fatalf("references: %s", textOf(res))
	}
	// one for the path given, one for main.go, whose two lines are shown
	if n := proj.Resolutions() - before; n != 2 {
		t.Errorf("trestle_references resolved %d paths, want 2 (the argument, and main.go once)", n)
	}
}
