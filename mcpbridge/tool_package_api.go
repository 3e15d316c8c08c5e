package mcpbridge

import (
	"context"
	"fmt"
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

func (s *Server) packageAPITool() server.ServerTool {
	tool := mcp.NewTool("trestle_package_api",
		mcp.WithDescription("A Go package's exported API (types with their fields and methods, functions, constants, "+
			"variables), with signatures and where each is declared; project packages and any the module imports. "+
			s.goplsHeadline()+`e.g. {"package":"app/store"}`),
		mcp.WithInputSchema[packageAPIParams](),
		hints("Package API", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.packageAPI)}
}

func (s *Server) packageAPI(ctx context.Context, p packageAPIParams) *mcp.CallToolResult {
	api, err := s.agent.PackageAPI(ctx, p.Package, p.Docs)
	if err != nil {
		return failErr(err)
	}
	// The text is the whole answer, sent once (doneText): as structured
	// content too, bbolt's API was 2.8 times the text again, and the JSON
	// is what Claude Code shows its model.
	var b strings.Builder
	fmt.Fprintf(&b, "package %s (%s), %s", api.Name, p.Package, plural(len(api.Files), "file"))
	if len(api.Files) > 0 {
		fmt.Fprintf(&b, " in %s", filepath.Dir(api.Files[0]))
	}
	b.WriteString("\n")
	for _, sy := range api.Symbols {
		b.WriteString(apiLine(sy))
	}
	if len(api.Symbols) == 0 {
		b.WriteString("It exports nothing.\n")
	}
	return doneText("%s", b.String())
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
		return fmt.Sprintf("func %s%s%s%s", recv, sy.Name, sy.TypeParams, strings.TrimPrefix(sy.Detail, "func"))
	case "struct", "interface", "class", "type parameter", "type":
		return fmt.Sprintf("type %s%s %s", sy.Name, sy.TypeParams, sy.Detail)
	case "constant":
		return strings.TrimRight(fmt.Sprintf("const %s %s", sy.Name, sy.Detail), " ")
	case "variable":
		return strings.TrimRight(fmt.Sprintf("var %s %s", sy.Name, sy.Detail), " ")
	}
	return strings.TrimRight(fmt.Sprintf("%s %s", sy.Name, sy.Detail), " ")
}
