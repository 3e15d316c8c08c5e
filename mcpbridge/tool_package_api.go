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
	Package string `json:"package" jsonschema:"an import path (net/http, go.etcd.io/bbolt) or a project folder (app/store; . for the root; ./errors when a standard package has its name)"`
	Docs    bool   `json:"docs,omitempty" jsonschema:"include each declaration's doc comment"`
}

type packageAPIResult struct {
	State   string       `json:"state"`
	Package string       `json:"package"`
	Name    string       `json:"name"`
	Files   []string     `json:"files"`
	Symbols []lsp.Symbol `json:"symbols"`
}

func (s *Server) packageAPITool() server.ServerTool {
	tool := mcp.NewTool("trestle_package_api",
		mcp.WithDescription("A Go package's exported API (types with their fields and methods, functions, constants, "+
			"variables), with signatures and where each is declared; project packages and any the module imports. "+
			s.goplsHeadline()+`e.g. {"package":"app/store"}`),
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
	res := packageAPIResult{State: stateDone, Package: p.Package, Name: api.Name, Files: api.Files, Symbols: []lsp.Symbol{}}
	var b strings.Builder
	fmt.Fprintf(&b, "package %s (%s), %s\n", api.Name, p.Package, plural(len(api.Files), "file"))
	for _, sy := range api.Symbols {
		if !p.Docs {
			sy.Doc = ""
		}
		res.Symbols = append(res.Symbols, sy)
		b.WriteString(apiLine(sy))
	}
	if len(res.Symbols) == 0 {
		b.WriteString("It exports nothing.\n")
	}
	return done(res, "%s", b.String())
}

// apiLine renders one symbol as Go reads it, after its doc comment when
// it carries one: "func (*DB) Begin(writable bool) (*Tx, error)".
func apiLine(sy lsp.Symbol) string {
	indent, where := "", fmt.Sprintf("  // %s:%d", filepath.Base(sy.Path), sy.Line)
	if sy.Container != "" {
		indent = "    "
	}
	var doc strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(sy.Doc), "\n") {
		if sy.Doc != "" {
			doc.WriteString(indent + strings.TrimRight("// "+l, " ") + "\n")
		}
	}
	return doc.String() + indent + apiDecl(sy) + where + "\n"
}

// apiDecl is the declaration itself, without doc or position.
func apiDecl(sy lsp.Symbol) string {
	switch sy.Kind {
	case "function", "method":
		recv := sy.Receiver
		if recv == "" {
			recv = sy.Container
		}
		if recv != "" {
			recv = "(" + recv + ") "
		}
		return fmt.Sprintf("func %s%s%s", recv, sy.Name, strings.TrimPrefix(sy.Detail, "func"))
	case "struct", "interface", "class", "type parameter", "type":
		return fmt.Sprintf("type %s %s", sy.Name, sy.Detail)
	case "constant":
		return strings.TrimRight(fmt.Sprintf("const %s %s", sy.Name, sy.Detail), " ")
	case "variable":
		return strings.TrimRight(fmt.Sprintf("var %s %s", sy.Name, sy.Detail), " ")
	}
	return strings.TrimRight(fmt.Sprintf("%s %s", sy.Name, sy.Detail), " ")
}

// packageFile is one Go file of the package that the current build
// context compiles (go list's GoFiles: a file that build constraints
// exclude, such as bbolt's bolt_386.go, would have gopls describe an empty
// package). pkg is an import path when it names one (a standard package
// before a project folder of the same name, as Go reads an import), else a
// project folder.
func (s *Server) packageFile(ctx context.Context, pkg string) (string, *mcp.CallToolResult) {
	pkg = strings.TrimSuffix(filepath.ToSlash(strings.TrimSpace(pkg)), "/")
	folder := strings.HasPrefix(pkg, ".") || filepath.IsAbs(pkg) ||
		(!strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") && !s.goSourceRoots().isStd(pkg))
	target := pkg
	if folder {
		rel, err := s.projectRel(strings.TrimPrefix(pkg, "./"))
		if err != nil {
			return "", failErr(err)
		}
		target = "./" + rel
	}
	dir, files, err := goListFiles(ctx, s.opts.Project.Root, target)
	if err != nil {
		return "", fail(stateNone, "no Go package %q in the project or among the packages it can import: %v "+
			"(give a folder such as app/store, or an import path such as net/http)", pkg, err)
	}
	if len(files) == 0 {
		return "", fail(stateNone, "package %q has no Go files for this platform and build tags (%s)", pkg, dir)
	}
	abs := filepath.Join(dir, files[0])
	if rel, err := filepath.Rel(s.opts.Project.Root, abs); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel), nil
	}
	if !s.goSourceRoots().contains(abs) {
		return "", fail(stateRefused, "package %q lives outside the project, the module cache and the Go root", pkg)
	}
	return abs, nil
}

// goListFiles is the folder of pkg and its Go files under the current
// build context, as the go command sees them from root.
func goListFiles(ctx context.Context, root, pkg string) (string, []string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f", "{{.Dir}}\n{{if .Error}}{{.Error}}{{else}}{{range .GoFiles}}{{.}}\n{{end}}{{end}}", "--", pkg)
	cmd.Dir = root
	cmd.Env = readOnlyGoEnv(root)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("%s", firstLine(stderr.String(), err))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 2 || !strings.HasSuffix(lines[1], ".go") {
		if len(lines) >= 2 {
			return lines[0], nil, fmt.Errorf("%s", lines[1])
		}
		return lines[0], nil, nil
	}
	return lines[0], lines[1:], nil
}

// firstLine is the first line of the go command's stderr, else err.
func firstLine(stderr string, err error) string {
	if l, _, _ := strings.Cut(strings.TrimSpace(stderr), "\n"); l != "" {
		return l
	}
	return err.Error()
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
