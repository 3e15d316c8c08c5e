package agent

import (
	"context"
	"errors"
	"io"
	"log"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/lsp"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/internal/testfix"
)

// These run the gopls operations on a real gopls over a small module;
// without gopls they skip, except under CI, where scripts/deps.sh installs
// it.

var goplsFixture = map[string]string{
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
`,
	"main.go": `package main

import (
	"fmt"
	"strings"

	"example.com/fixture/shapes"
)

func main() {
	sq := shapes.NewSquare(2)
	fmt.Println(sq.Area(), shapes.NewSquare(3).Area(), strings.TrimSpace(" x "))
}
`,
	"bad/bad.go": "package bad\n\nvar N int = \"not a number\"\n",
}

// goplsAgent is an Agent over a copy of goplsFixture with a real gopls and
// change sets in a real store.
func goplsAgent(t *testing.T) *Agent {
	t.Helper()
	_, err := lsp.Find(context.Background(), "")
	testfix.Need(t, "gopls", err)
	p, err := project.Open(testfix.Project(t, goplsFixture))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	c := lsp.New(lsp.Config{Root: p.Root, Logger: log.New(io.Discard, "", 0)})
	t.Cleanup(func() { c.Close() })
	sv := services.Services{LSP: c, ChangeSets: changeset.NewManager(db, p), Tasks: task.NewRunner(p.Root)}
	return New(Config{Project: p, Services: sv})
}

// TestGoplsOperations runs each gopls operation on one gopls: starting
// it is most of the cost.
func TestGoplsOperations(t *testing.T) {
	a := goplsAgent(t)
	t.Run("lookups", func(t *testing.T) { testLookups(t, a) })
	t.Run("package, rename and live problems", func(t *testing.T) { testPackageRenameAndLive(t, a) })
}

// testLookups: Definition and References find a symbol as Go reads
// it in the file named (an imported package's name, a method of a type
// declared elsewhere, a name the file does not use), answer with the
// lines of what they found, in the project or the Go root, and say what
// kind of failure a bad target is.
func testLookups(t *testing.T, a *Agent) {
	ctx := context.Background()

	def, err := a.Definition(ctx, Target{Path: "main.go", Symbol: "shapes.NewSquare"})
	if err != nil || len(def.Definitions) != 1 {
		t.Fatalf("Definition(shapes.NewSquare) = %+v, %v", def, err)
	}
	if d := def.Definitions[0]; d.Path != "shapes/shapes.go" || d.Line != 13 || d.EndLine != 15 ||
		d.Text != "func NewSquare(side float64) Square {\n\treturn Square{Side: side}\n}" {
		t.Errorf("NewSquare is declared at %+v", d)
	}
	if def.At.Path != "main.go" || def.At.Line != 11 {
		t.Errorf("shapes.NewSquare resolved at %s, want its first use, main.go:11", def.At)
	}

	// A name main.go does not use: its declaration in the Go root.
	def, err = a.Definition(ctx, Target{Path: "main.go", Symbol: "strings.ToUpper"})
	if err != nil || len(def.Definitions) != 1 || !filepath.IsAbs(def.Definitions[0].Path) ||
		!strings.Contains(def.Definitions[0].Text, "func ToUpper(") {
		t.Errorf("Definition(strings.ToUpper) = %+v, %v; want the standard library's, with its text", def, err)
	}

	// Square.Area is declared in shapes; main.go uses it through sq.
	refs, err := a.References(ctx, Target{Path: "main.go", Symbol: "Square.Area"}, false, 0)
	if err != nil || refs.Count != 2 || len(refs.References) != 2 || refs.Truncated {
		t.Fatalf("References(Square.Area) = %+v, %v; want main.go's two uses", refs, err)
	}
	for _, r := range refs.References {
		if r.Path != "main.go" || r.Line != 12 || !strings.HasPrefix(r.Text, "fmt.Println(sq.Area()") {
			t.Errorf("reference %+v", r)
		}
	}
	refs, err = a.References(ctx, Target{Path: "shapes/shapes.go", Line: 13, Column: 6}, true, 1)
	if err != nil || refs.Count != 3 || len(refs.References) != 1 || !refs.Truncated {
		t.Errorf("References(NewSquare, with its declaration, limit 1) = %+v, %v", refs, err)
	}

	for _, bad := range []struct {
		t    Target
		kind error
	}{
		{Target{Path: "go.mod", Symbol: "x"}, errdefs.ErrInvalid},
		{Target{Path: "main.go"}, errdefs.ErrInvalid},
		{Target{Path: "main.go", Symbol: "Nowhere"}, errdefs.ErrNotFound},
		{Target{Path: "main.go", Symbol: "shapes.Circle"}, errdefs.ErrNotFound},
		{Target{Path: "../outside.go", Symbol: "x"}, errdefs.ErrOutside},
	} {
		if _, err := a.Definition(ctx, bad.t); !errors.Is(err, bad.kind) {
			t.Errorf("Definition(%+v) = %v, want %v", bad.t, err, bad.kind)
		}
	}
}

// testPackageRenameAndLive: PackageAPI reads a project folder or an
// import path; Rename proposes a change set and changes no file, and
// refuses a name outside the project; Diagnostics carry gopls's type
// errors under the path asked about, and LiveProblems are nothing without
// gopls.
func testPackageRenameAndLive(t *testing.T, a *Agent) {
	ctx := context.Background()

	api, err := a.PackageAPI(ctx, "shapes", false)
	var names []string
	for _, sy := range api.Symbols {
		names = append(names, sy.Name)
		if sy.Doc != "" {
			t.Errorf("%s has its doc without docs: %q", sy.Name, sy.Doc)
		}
	}
	if err != nil || api.Name != "shapes" || !slices.Contains(names, "NewSquare") || !slices.Contains(names, "Area") {
		t.Errorf("PackageAPI(shapes) = %s %v, %v", api.Name, names, err)
	}
	if api, err := a.PackageAPI(ctx, "strings", true); err != nil || api.Name != "strings" || len(api.Symbols) == 0 {
		t.Errorf("PackageAPI(strings) = %s (%d symbols), %v", api.Name, len(api.Symbols), err)
	}
	if _, err := a.PackageAPI(ctx, "./nowhere", false); !errors.Is(err, errdefs.ErrNotFound) {
		t.Errorf("PackageAPI(./nowhere) = %v, want not found", err)
	}

	who := Caller{Client: "alice", Owner: "owner-a"}
	cs, err := a.Rename(ctx, who, RenameInput{Target: Target{Path: "main.go", Symbol: "shapes.NewSquare"}, NewName: "NewBox"})
	if err != nil || cs.Title != "Rename shapes.NewSquare to NewBox" || len(cs.Files) != 2 || !cs.Undecided() || cs.Client != "alice" {
		t.Fatalf("Rename = %+v, %v; want a pending change set of main.go and shapes.go", cs, err)
	}
	if ft, _, _ := a.ReadFile(ctx, "main.go"); strings.Contains(ft.Text, "NewBox") {
		t.Errorf("Rename changed main.go before the person applied it:\n%s", ft.Text)
	}
	if _, err := a.Rename(ctx, who, RenameInput{Target: Target{Path: "main.go", Symbol: "fmt.Println"}, NewName: "Say"}); !errors.Is(err, errdefs.ErrRefused) {
		t.Errorf("renaming fmt.Println: %v, want refused", err)
	}
	if _, err := a.Rename(ctx, who, RenameInput{Target: Target{Path: "main.go", Symbol: "main"}, NewName: "not-go"}); !errors.Is(err, errdefs.ErrInvalid) {
		t.Errorf("renaming to not-go: %v, want invalid", err)
	}

	var diag DiagnosticsOutput
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Diagnostics last answered %+v, %v", diag, err)
		}
	})
	testfix.Wait(t, liveWait*3, "gopls's type error in bad/bad.go", func() bool {
		diag, err = a.Diagnostics(ctx, who, "bad/", false)
		return err == nil && len(diag.Live) > 0
	})
	if diag.Filter != "bad" || diag.Run != nil || len(diag.Problems) != 0 || diag.LiveErr != nil {
		t.Errorf("Diagnostics(bad/) = %+v; want gopls's problems alone, nothing having run", diag)
	}
	if p := diag.Live[0]; p.Path != "bad/bad.go" || p.Line != 3 || p.Severity != "error" || p.Source != "gopls" {
		t.Errorf("live problem %+v", p)
	}
	if live, err := New(Config{Project: a.Project()}).LiveProblems(ctx, ""); live != nil || err != nil {
		t.Errorf("without gopls: %v, %v; want nothing", live, err)
	}
}
