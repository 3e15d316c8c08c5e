package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// Issue 23: the Go tools answer what Go means, asked by a real client of
// the headless server on a real module (bbolt, from the module cache), and
// checked against what the go command says of the same names.

func TestGoToolsAnswerAsGoDoesOnBbolt(t *testing.T) {
	needGoplsBin(t)
	offline(t)
	project := testfix.CopyBbolt(t)
	c := startClient(t, []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY="}, "go-answers", "--mcp", project)

	t.Run("package api of the root is the build context's", func(t *testing.T) {
		res, _ := callWait(t, c, "trestle_package_api", map[string]any{"package": "."})
		text := resultText(res)
		if res.IsError || strings.Contains(text, "exports nothing") || res.StructuredContent != nil {
			t.Fatalf("package api of . (structured %v): %s", res.StructuredContent, text)
		}
		got := apiNames(text)
		for _, name := range goDocNames(t, project, ".") {
			if !got[name] {
				t.Errorf("go doc lists %s; trestle_package_api does not:\n%s", name, text)
			}
		}
		for _, want := range []string{"func (*DB) Begin(writable bool) (t *Tx, err error)", "func (*Bucket) Get(key []byte) []byte",
			"func (*Tx) Check(options ...CheckOption) <-chan error  // tx_check.go:", "type CheckOption func(options *checkConfig)",
			"const MaxKeySize = 32768", "var DefaultOptions = &Options{"} {
			if !strings.Contains(text, want) {
				t.Errorf("package api lacks %q:\n%s", want, text)
			}
		}
	})
	t.Run("a standard package before a folder of the same name", func(t *testing.T) {
		res, _ := callWait(t, c, "trestle_package_api", map[string]any{"package": "errors", "docs": true})
		got := apiNames(resultText(res))
		if res.IsError || !strings.HasPrefix(resultText(res), "package errors (errors), ") || !got["Is"] || !got["As"] || got["ErrDatabaseNotOpen"] {
			t.Fatalf("errors is the standard library's: %s", resultText(res))
		}
		if !strings.Contains(resultText(res), "// Is reports whether any error in err's tree matches target.") {
			t.Errorf("docs:true shows no doc comment:\n%s", resultText(res))
		}
		res, _ = callWait(t, c, "trestle_package_api", map[string]any{"package": "./errors"})
		if got := apiNames(resultText(res)); res.IsError || !got["ErrDatabaseNotOpen"] {
			t.Fatalf("./errors is bbolt's folder: %s", resultText(res))
		}
	})
	for _, q := range []struct{ symbol, pkg, decl string }{
		{"fmt.Errorf", "fmt", "func Errorf("},   // db.go imports fmt but calls lg.Errorf
		{"os.OpenFile", "os", "func OpenFile("}, // db.go also has Options.OpenFile
	} {
		t.Run("definition of "+q.symbol, func(t *testing.T) {
			res, _ := callWait(t, c, "trestle_definition", map[string]any{"path": "db.go", "symbol": q.symbol})
			defs := goplsLocs(resultText(res))
			if res.IsError || len(defs) != 1 || res.StructuredContent != nil {
				t.Fatalf("definition (structured %v): %s", res.StructuredContent, resultText(res))
			}
			path, text := defs[0].path, defs[0].rest
			if filepath.Dir(path) != goListDir(t, project, q.pkg) || !strings.HasPrefix(text, q.decl) {
				t.Fatalf("%s is declared in %s, starting %q; got %s: %q", q.symbol, goListDir(t, project, q.pkg), q.decl, path, text)
			}
		})
	}
	t.Run("references of a qualified name are that name's", func(t *testing.T) {
		res, _ := callWait(t, c, "trestle_references", map[string]any{"path": "db.go", "symbol": "fmt.Errorf"})
		refs := goplsLocs(resultText(res))
		if res.IsError || len(refs) == 0 || res.StructuredContent != nil {
			t.Fatalf("references (structured %v): %s", res.StructuredContent, resultText(res))
		}
		for _, r := range refs {
			if strings.Contains(r.rest, "lg.Errorf") || !strings.Contains(r.rest, "Errorf") {
				t.Fatalf("a reference to fmt.Errorf reads %q", r.rest)
			}
		}
	})
	t.Run("symbols say when gopls's cap cut them", func(t *testing.T) {
		res, _ := callWait(t, c, "trestle_symbols", map[string]any{"query": "e", "limit": 300})
		text := resultText(res)
		syms := goplsLocs(text)
		if res.IsError || len(syms) != 100 || !strings.Contains(text, "(gopls returns at most 100 symbols, so more may match") {
			t.Fatalf("symbols e with limit 300: %d symbols:\n%s", len(syms), text)
		}
	})
	t.Run("a type error written to disk reaches diagnostics", func(t *testing.T) {
		callWait(t, c, "trestle_diagnostics", map[string]any{}) // gopls has loaded the module
		os.WriteFile(filepath.Join(project, "zz_broken.go"), []byte("package bbolt\n\nvar brokenOnDisk int = \"not an int\"\n"), 0o644)
		var text string
		testfix.Wait(t, time.Minute, "the on-disk type error in trestle_diagnostics", func() bool {
			res, _ := callWait(t, c, "trestle_diagnostics", map[string]any{"path": "zz_broken.go"})
			text = resultText(res)
			return strings.Contains(text, "zz_broken.go:3:")
		})
		// Headless there is no editor: gopls sees the files on disk.
		if !strings.Contains(text, "1 problem from gopls (live, files on disk):") {
			t.Errorf("headless diagnostics say what gopls sees wrongly:\n%s", text)
		}
	})
}

// TestGoToolsAnswerAsGoDoesOnFsnotify: the package API tells what Go
// means on a second real module and the standard library: a constant
// written bare in an iota group has its type and value (fsnotify's Chmod
// read "const Chmod"), and a generic function or type keeps its type
// parameters, as go doc writes them (slices.Clone read "func Clone(s S) S").
func TestGoToolsAnswerAsGoDoesOnFsnotify(t *testing.T) {
	needGoplsBin(t)
	offline(t)
	project := testfix.CopyModule(t, "github.com/fsnotify/fsnotify")
	c := startClient(t, []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY="}, "go-answers", "--mcp", project)

	res, _ := callWait(t, c, "trestle_package_api", map[string]any{"package": "."})
	text := resultText(res)
	got := apiNames(text)
	for _, name := range goDocNames(t, project, ".") {
		if !got[name] {
			t.Errorf("go doc lists %s; trestle_package_api does not:\n%s", name, text)
		}
	}
	for _, want := range []string{"const Create Op = 1  //", "const Write Op = 2  //", "const Chmod Op = 16  //",
		"func (*Watcher) Add(path string) error"} {
		if !strings.Contains(text, want) {
			t.Errorf("package api of . lacks %q:\n%s", want, text)
		}
	}
	for _, q := range []struct{ pkg, name string }{
		{"slices", "Clone"}, {"slices", "SortFunc"}, {"maps", "Keys"}, {"sync/atomic", "Pointer"},
		{"./internal", "IgnoringEINTR"},
	} {
		res, _ := callWait(t, c, "trestle_package_api", map[string]any{"package": q.pkg})
		decl := goDocDecl(t, project, q.pkg, q.name)
		if res.IsError || !strings.Contains(resultText(res), decl) {
			t.Errorf("go doc %s %s declares %q; trestle_package_api says:\n%s", q.pkg, q.name, decl, resultText(res))
		}
	}
}

// goDocDecl is the start of name's declaration as `go doc pkg name`
// prints it: a func's whole signature, a type's line up to its kind
// ("type Pointer[T any] struct").
func goDocDecl(t *testing.T, dir, pkg, name string) string {
	t.Helper()
	cmd := exec.Command("go", "doc", pkg, name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go doc %s %s: %v", pkg, name, err)
	}
	m := regexp.MustCompile(`(?m)^(func ` + name + `\b.*|type ` + name + `\b[^{]*?) ?\{?$`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("go doc %s %s has no declaration line:\n%s", pkg, name, out)
	}
	return strings.TrimSuffix(m[1], " {")
}

// needGoplsBin skips without gopls, except under CI.
func needGoplsBin(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("gopls"); err == nil {
		return
	}
	out, _ := exec.Command("go", "env", "GOPATH").Output()
	if _, err := os.Stat(filepath.Join(strings.TrimSpace(string(out)), "bin", "gopls")); err == nil {
		return
	}
	testfix.Need(t, "gopls", errors.New("no gopls on PATH or in GOPATH/bin"))
}

// goplsLoc is one location a gopls tool's text names: "db.go:42:6: rest",
// or for a definition "db.go:42:6 (lines 42-58):" with its lines as rest.
type goplsLoc struct {
	path      string
	line, col int
	rest      string
}

// goplsLocRE matches a line that starts a location in a gopls tool's text.
var goplsLocRE = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+)(?:-\d+)?(?: \(lines \d+-\d+\))?:(?: (.*))?$`)

// goplsLocs are the locations of a trestle_symbols, trestle_references or
// trestle_definition answer, in order; a definition's declaration lines
// are its rest.
func goplsLocs(text string) []goplsLoc {
	var out []goplsLoc
	for _, l := range strings.Split(text, "\n") {
		if m := goplsLocRE.FindStringSubmatch(l); m != nil {
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			out = append(out, goplsLoc{path: m[1], line: line, col: col, rest: m[4]})
			continue
		}
		if n := len(out); n > 0 && !strings.HasPrefix(l, "(") {
			if out[n-1].rest != "" {
				out[n-1].rest += "\n"
			}
			out[n-1].rest += l
		}
	}
	return out
}

// apiDeclName is the name a package_api line declares: "func (*DB) Begin(…",
// "type DB struct{...}", "const MaxKeySize = …", "    NoSync bool".
var apiDeclName = regexp.MustCompile(`^\s*(?:func (?:\([^)]*\) )?|type |const |var )?(\w+)`)

// apiNames are the names a package_api answer's text declares.
func apiNames(text string) map[string]bool {
	out := map[string]bool{}
	for _, l := range strings.Split(text, "\n")[1:] {
		if strings.HasPrefix(strings.TrimSpace(l), "//") {
			continue
		}
		if m := apiDeclName.FindStringSubmatch(l); m != nil {
			out[m[1]] = true
		}
	}
	return out
}

// goDocNames are the package-level names `go doc -short` lists for pkg.
func goDocNames(t *testing.T, dir, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "doc", "-short", pkg)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go doc -short %s: %v", pkg, err)
	}
	re := regexp.MustCompile(`(?m)^\s*(?:func|type|const|var) (\w+)`)
	var names []string
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		names = append(names, m[1])
	}
	if len(names) < 5 {
		t.Fatalf("go doc -short %s lists only %v", pkg, names)
	}
	return names
}

// goListDir is the folder the go command compiles pkg from, seen from dir.
func goListDir(t *testing.T, dir, pkg string) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", pkg)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	return strings.TrimSpace(string(out))
}
