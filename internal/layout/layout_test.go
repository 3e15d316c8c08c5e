package layout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// A rule says that the packages at or under From (but those at or under
// Exempt) may not import a package at or under any of Not, except those at
// or under Except: neither through their imports (Deps: directly or
// indirectly, or Imports only when Direct) nor directly from their tests.
type rule struct {
	From   string
	Exempt []string
	Not    []string
	Except []string
	Direct bool
	Why    string
}

// rules are the layout's import rules (see doc.go).
var rules = []rule{
	{From: "trestle/app", Not: []string{"fyne.io", "trestle/ui", "trestle/mcpbridge", "trestle/cmd", "trestle/registry"},
		Why: "app is the core without Fyne: the window and the protocols are built on it, not in it"},
	{From: "trestle/app/agent", Not: []string{"github.com/mark3labs/mcp-go", "trestle/mcpbridge", "trestle/ui"},
		Why: "app/agent is the agent layer under every protocol: MCP and ACP are adapters over it, and it knows none of them"},
	{From: "trestle/mcpbridge", Not: []string{"fyne.io", "trestle/ui", "trestle/cmd"},
		Why: "mcpbridge reaches the window only through app/workbench.Window"},
	{From: "trestle/ui", Not: []string{"trestle/mcpbridge", "trestle/cmd"},
		Why: "ui and mcpbridge meet only in cmd/trestle"},
	{From: "trestle/ui/editor", Not: []string{"trestle/ui"}, Except: []string{"trestle/ui/editor"},
		Why: "a widget knows nothing of the window"},
	{From: "trestle/ui/review", Not: []string{"trestle/ui"}, Except: []string{"trestle/ui/review", "trestle/ui/editor"},
		Why: "a widget knows nothing of the window"},
	{From: "trestle/registry", Not: []string{"trestle"}, Except: []string{"trestle/registry", "trestle/internal/testfix"},
		Why: "registry depends on nothing of ours"},
	{From: "trestle/cmd/trestle/front", Not: []string{"fyne.io", "github.com/traefik/yaegi", "github.com/yuin/goldmark",
		"github.com/mark3labs/mcp-go", "trestle/ui", "trestle/mcpbridge", "trestle/app/eval", "trestle/app/agent", "trestle/app/lsp"},
		Why: "the trestle front's start is what every `trestle changes` pays: it links the change sets and the store, not the workbench"},
	{From: "trestle", Exempt: []string{"trestle/cmd/trestle"}, Not: []string{"fyne.io/fyne/v2/app"}, Direct: true,
		Why: "only cmd/trestle starts the Fyne app"},
}

// pkg is what go list says of one package.
type pkg struct {
	ImportPath   string
	Imports      []string
	Deps         []string
	TestImports  []string
	XTestImports []string
}

// under reports whether path is prefix or a package under it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

func underAny(path string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(p string) bool { return under(path, p) })
}

// violations lists every import in pkgs that breaks one of rules.
func violations(pkgs []pkg, rules []rule) []string {
	var out []string
	for _, p := range pkgs {
		for _, r := range rules {
			if !under(p.ImportPath, r.From) || underAny(p.ImportPath, r.Exempt) {
				continue
			}
			imports := p.Deps
			if r.Direct {
				imports = p.Imports
			}
			for _, imp := range slices.Concat(imports, p.TestImports, p.XTestImports) {
				if imp != p.ImportPath && underAny(imp, r.Not) && !underAny(imp, r.Except) {
					out = append(out, fmt.Sprintf("%s imports %s: %s", p.ImportPath, imp, r.Why))
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// listPackages is every package of the module as go list sees it, with
// and without the test hooks' build tag.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	var pkgs []pkg
	for _, tags := range []string{"", "trestle_testhooks"} {
		cmd := exec.Command("go", "list", "-tags", tags, "-json=ImportPath,Imports,Deps,TestImports,XTestImports", "trestle/...")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list trestle/...: %v\n%s", err, stderr.String())
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		for {
			var p pkg
			if err := dec.Decode(&p); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("go list output: %v", err)
			}
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// TestImportRules fails when a package breaks the layout's import rules:
// app importing Fyne, ui or mcpbridge, ui and mcpbridge importing each
// other, a widget importing the window, registry importing anything of
// ours, or any package but cmd/trestle importing fyne.io/fyne/v2/app.
func TestImportRules(t *testing.T) {
	for _, v := range violations(listPackages(t), rules) {
		t.Error(v)
	}
}

// TestImportRulesCatchViolations checks the rules against the imports
// they exist to stop, so that a rule that matches nothing cannot pass
// unnoticed.
func TestImportRulesCatchViolations(t *testing.T) {
	tests := []struct {
		name string
		pkg  pkg
		want string
	}{
		{"agent imports mcpbridge", pkg{ImportPath: "trestle/app/agent", Deps: []string{"context", "trestle/mcpbridge"}},
			"trestle/app/agent imports trestle/mcpbridge"},
		{"agent imports mcp-go", pkg{ImportPath: "trestle/app/agent", Deps: []string{"github.com/mark3labs/mcp-go/mcp"}},
			"trestle/app/agent imports github.com/mark3labs/mcp-go/mcp"},
		{"agent imports ui", pkg{ImportPath: "trestle/app/agent", Deps: []string{"trestle/ui"}},
			"trestle/app/agent imports trestle/ui"},
		{"app imports ui indirectly", pkg{ImportPath: "trestle/app/eval", Deps: []string{"trestle/ui/editor"}},
			"trestle/app/eval imports trestle/ui/editor"},
		{"app test imports Fyne", pkg{ImportPath: "trestle/app/store", TestImports: []string{"fyne.io/fyne/v2"}},
			"trestle/app/store imports fyne.io/fyne/v2"},
		{"mcpbridge imports ui", pkg{ImportPath: "trestle/mcpbridge/supervise", Deps: []string{"trestle/ui"}},
			"trestle/mcpbridge/supervise imports trestle/ui"},
		{"ui imports mcpbridge", pkg{ImportPath: "trestle/ui", Deps: []string{"trestle/mcpbridge"}},
			"trestle/ui imports trestle/mcpbridge"},
		{"editor imports the window", pkg{ImportPath: "trestle/ui/editor", Deps: []string{"trestle/ui"}},
			"trestle/ui/editor imports trestle/ui"},
		{"registry imports app", pkg{ImportPath: "trestle/registry", Deps: []string{"trestle/app/store"}},
			"trestle/registry imports trestle/app/store"},
		{"ui starts the app", pkg{ImportPath: "trestle/ui", Imports: []string{"fyne.io/fyne/v2/app"}},
			"trestle/ui imports fyne.io/fyne/v2/app"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := violations([]pkg{tt.pkg}, rules)
			if !slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, tt.want+":") }) {
				t.Errorf("violations = %q, want one starting %q", got, tt.want)
			}
		})
	}
	allowed := []pkg{
		{ImportPath: "trestle/cmd/trestle", Imports: []string{"fyne.io/fyne/v2/app", "trestle/ui", "trestle/mcpbridge"}},
		{ImportPath: "trestle/ui/review", Deps: []string{"trestle/ui/editor", "fyne.io/fyne/v2"}},
		{ImportPath: "trestle/registry", TestImports: []string{"trestle/internal/testfix"}},
		{ImportPath: "trestle/mcpbridge", Deps: []string{"trestle/app/workbench", "trestle/registry"}},
		{ImportPath: "trestle/mcpbridge", Deps: []string{"trestle/app/agent", "github.com/mark3labs/mcp-go/mcp"}},
	}
	if got := violations(allowed, rules); len(got) > 0 {
		t.Errorf("allowed imports reported: %q", got)
	}
}
