package mcpbridge

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/lsp"
)

type packageAPIParams struct {
	Package string `json:"package" jsonschema:"a package folder in the project (app/store, . for the root) or an import path the module can see (net/http, go.etcd.io/bbolt)"`
}

type apiSymbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Detail    string `json:"detail,omitempty"`
	Container string `json:"container,omitempty"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
}

type packageAPIResult struct {
	State   string      `json:"state"`
	Package string      `json:"package"`
	Name    string      `json:"name"`
	Files   []string    `json:"files"`
	Symbols []apiSymbol `json:"symbols"`
}

func (s *Server) packageAPITool() server.ServerTool {
	tool := mcp.NewTool("trestle_package_api",
		mcp.WithDescription("A Go package's exported API: its exported types (with their exported fields and "+
			"methods), functions, constants and variables, with signatures and where each is declared. Works for "+
			"project packages and for any package the module imports. "+s.goplsHeadline()+`e.g. {"package":"app/store"}`),
		mcp.WithInputSchema[packageAPIParams](),
		results[packageAPIResult](),
		hints("Package API", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.packageAPI)}
}

func (s *Server) packageAPI(ctx context.Context, p packageAPIParams) *mcp.CallToolResult {
	if strings.TrimSpace(p.Package) == "" {
		return fail(stateProblem, "package is required, e.g. {\"package\":\"app/store\"}")
	}
	c, ctx, cancel := s.gopls(ctx)
	defer cancel()
	file, bad := s.packageFile(ctx, p.Package)
	if bad != nil {
		return bad
	}
	api, err := c.PackageAPI(ctx, file)
	if err != nil {
		return goplsFail(err)
	}
	res := packageAPIResult{State: stateDone, Package: p.Package, Name: api.Name, Files: api.Files, Symbols: []apiSymbol{}}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s (%s), %d files\n", api.Name, p.Package, len(api.Files))
	for _, sy := range api.Symbols {
		res.Symbols = append(res.Symbols, apiSymbol{Name: sy.Name, Kind: sy.Kind, Detail: sy.Detail,
			Container: sy.Container, Path: sy.Path, Line: sy.Line})
		b.WriteString(apiLine(sy))
	}
	if len(res.Symbols) == 0 {
		b.WriteString("It exports nothing.\n")
	}
	return done(res, "%s", b.String())
}

// apiLine renders one symbol as Go reads: "func Open(path string) (*DB, error)".
func apiLine(sy lsp.Symbol) string {
	indent, where := "", fmt.Sprintf("  // %s:%d", filepath.Base(sy.Path), sy.Line)
	if sy.Container != "" {
		indent = "    "
	}
	switch sy.Kind {
	case "function", "method":
		recv := ""
		if sy.Container != "" {
			recv = "(" + sy.Container + ") "
		}
		return fmt.Sprintf("%sfunc %s%s%s%s\n", indent, recv, sy.Name, strings.TrimPrefix(sy.Detail, "func"), where)
	case "struct", "interface", "class", "type parameter":
		return fmt.Sprintf("%stype %s %s%s\n", indent, sy.Name, sy.Detail, where)
	case "constant":
		return fmt.Sprintf("%sconst %s %s%s\n", indent, sy.Name, sy.Detail, where)
	case "variable":
		return fmt.Sprintf("%svar %s %s%s\n", indent, sy.Name, sy.Detail, where)
	}
	return fmt.Sprintf("%s%s %s%s\n", indent, sy.Name, sy.Detail, where)
}

// packageFile is one Go file of the package: a project folder's, else
// the go command's answer for an import path.
func (s *Server) packageFile(ctx context.Context, pkg string) (string, *mcp.CallToolResult) {
	if !strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") || strings.HasPrefix(pkg, ".") {
		if rel, err := s.projectRel(strings.TrimPrefix(pkg, "./")); err == nil {
			if f, ok := firstGoFile(filepath.Join(s.opts.Project.Root, filepath.FromSlash(rel))); ok {
				return filepath.ToSlash(filepath.Join(rel, f)), nil
			}
		}
	}
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.Dir}}\n{{range .GoFiles}}{{.}}\n{{end}}", "--", pkg)
	cmd.Dir = s.opts.Project.Root
	cmd.Env = readOnlyGoEnv(s.opts.Project.Root)
	out, err := cmd.Output()
	lines := strings.Fields(string(out))
	if err != nil || len(lines) < 2 {
		return "", fail(stateNone, "no Go package %q in the project or among the packages it can import "+
			"(give a folder such as app/store, or an import path such as net/http)", pkg)
	}
	abs := filepath.Join(lines[0], lines[1])
	if rel, err := filepath.Rel(s.opts.Project.Root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel), nil
	}
	if !s.goSourceRoots().contains(abs) {
		return "", fail(stateRefused, "package %q lives outside the project, the module cache and the Go root", pkg)
	}
	return abs, nil
}

// readOnlyGoEnv is the environment for a go command an agent's argument
// reaches: it may not change go.mod or go.sum (a GOFLAGS=-mod=mod in the
// person's environment would let `go list example.com/x` add a
// requirement) nor download anything.
func readOnlyGoEnv(root string) []string {
	mode := "-mod=readonly"
	if fi, err := os.Stat(filepath.Join(root, "vendor")); err == nil && fi.IsDir() {
		mode = "-mod=vendor"
	}
	return append(os.Environ(), "GOFLAGS="+mode, "GOPROXY=off")
}

// firstGoFile is the first non-test .go file in dir.
func firstGoFile(dir string) (string, bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	for _, e := range ents {
		if n := e.Name(); e.Type().IsRegular() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			return n, true
		}
	}
	return "", false
}
