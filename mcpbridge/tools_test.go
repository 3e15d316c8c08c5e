package mcpbridge

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"trestle/app/services"
	"trestle/app/workbench"
)

// stdioClient serves p headless over pipes (the --mcp path) and returns an
// initialized mcp-go client.
func stdioClient(t *testing.T, setup func(dir string), onCall ...func(workbench.ToolCall)) *client.Client {
	t.Helper()
	project := newTestProject(t)
	if setup != nil {
		setup(project.Root)
	}
	opts := quiet()
	if len(onCall) > 0 {
		opts.OnCall = onCall[0]
	}
	return connectStdio(t, NewServer(testAgent(project, nil, services.Services{}), opts), "tools-test")
}

// connectStdio serves srv over pipes, as --mcp does over stdin and stdout,
// and returns an initialized mcp-go client named name. Cleanup closes the
// client and checks the server then ends.
func connectStdio(t testing.TB, srv *Server, name string) *client.Client {
	t.Helper()
	c, _ := connectStdioInit(t, srv, name)
	return c
}

// connectStdioInit is connectStdio that also returns the server's answer
// to initialize.
func connectStdioInit(t testing.TB, srv *Server, name string) (*client.Client, *mcp.InitializeResult) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- ServeStdio(context.Background(), srv, inR, outW); outW.Close() }()
	c := client.NewClient(transport.NewIO(outR, inW, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = "2025-06-18"
	req.Params.ClientInfo = mcp.Implementation{Name: name, Version: "1"}
	init, err := c.Initialize(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		select {
		case <-served:
		case <-time.After(30 * time.Second): // generous: a loaded machine
			t.Error("ServeStdio did not end after stdin closed")
		}
	})
	return c, init
}

func TestHeadlessToolList(t *testing.T) {
	c := stdioClient(t, nil)
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		a := tool.Annotations
		if a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint ||
			a.OpenWorldHint == nil || *a.OpenWorldHint || tool.Description == "" {
			t.Errorf("%s: annotations %+v, description %q", tool.Name, a, tool.Description)
		}
	}
	if strings.Join(names, ",") != "trestle_files,trestle_read,trestle_search" {
		t.Fatalf("headless tools: %v", names)
	}
}

func TestReadTool(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o600)
	c := stdioClient(t, func(dir string) {
		os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "link.txt"))
		os.Symlink(outside, filepath.Join(dir, "linkdir"))
	})
	whole := "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	sum := sha256.Sum256([]byte(whole))
	tests := []struct {
		name      string
		args      map[string]any
		wantState string
		wantText  string
	}{
		{"whole file", map[string]any{"path": "main.go"}, "done", whole},
		{"line range", map[string]any{"path": "main.go", "start_line": 3, "end_line": 4}, "done", "func main() {\n\tprintln(\"hi\")\n"},
		{"end past last line", map[string]any{"path": "main.go", "start_line": 5, "end_line": 99}, "done", "}\n"},
		{"start past last line", map[string]any{"path": "main.go", "start_line": 9}, "problem", "past the last line"},
		{"dot dot", map[string]any{"path": "../x.go"}, "refused", "outside the project"},
		{"absolute outside", map[string]any{"path": filepath.Join(outside, "secret.txt")}, "refused", "outside the project"},
		{"symlink out", map[string]any{"path": "link.txt"}, "refused", "symlink"},
		{"through symlinked folder", map[string]any{"path": "linkdir/secret.txt"}, "refused", "symlink"},
		{"missing", map[string]any{"path": "nope.go"}, "none", "no such file"},
		{"folder", map[string]any{"path": "pkg"}, "problem", "folder"},
		{"no path", map[string]any{}, "problem", "path is required"},
		{"wrong type", map[string]any{"path": 42}, "problem", "path must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, sc := callTool(t, c, "trestle_read", tt.args)
			text := textOf(res)
			if res.IsError != (tt.wantState != "done") {
				t.Fatalf("isError %v: %s", res.IsError, text)
			}
			if tt.wantState == "done" {
				header, body, _ := strings.Cut(text, "\n")
				if body != tt.wantText || !strings.HasSuffix(header, " of 5, sha256 "+hex.EncodeToString(sum[:])+":") ||
					res.StructuredContent != nil {
					t.Fatalf("result %q (structured %v)", text, res.StructuredContent)
				}
				return
			}
			if sc["state"] != tt.wantState {
				t.Fatalf("state %v: %s", sc["state"], text)
			}
			if !strings.HasPrefix(text, tt.wantState+": ") || !strings.Contains(text, tt.wantText) {
				t.Fatalf("text %q, want prefix %q and %q", text, tt.wantState, tt.wantText)
			}
		})
	}
}

func TestFilesTool(t *testing.T) {
	c := stdioClient(t, nil)
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"all, without .git", map[string]any{}, "docs/readme.txt,go.mod,main.go,pkg/util.go"},
		{"glob", map[string]any{"glob": "*.go"}, "main.go,pkg/util.go"},
		{"under", map[string]any{"under": "pkg"}, "pkg/util.go"},
		{"limit", map[string]any{"limit": 2}, "docs/readme.txt,go.mod"},
		{"nothing", map[string]any{"glob": "*.rs"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, sc := callTool(t, c, "trestle_files", tt.args)
			if res.IsError {
				t.Fatal(textOf(res))
			}
			var got []string
			for _, f := range sc["files"].([]any) {
				got = append(got, f.(string))
			}
			if strings.Join(got, ",") != tt.want {
				t.Fatalf("files %v, want %s", got, tt.want)
			}
			if tt.want == "" && textOf(res) != "No files matched." {
				t.Fatalf("empty text %q", textOf(res))
			}
		})
	}
	res, sc := callTool(t, c, "trestle_files", map[string]any{"under": "../"})
	if !res.IsError || sc["state"] != "refused" {
		t.Fatalf("under ../: %v", sc)
	}
}

func TestEveryCallIsRecorded(t *testing.T) {
	calls := make(chan workbench.ToolCall, 10)
	c := stdioClient(t, nil, func(tc workbench.ToolCall) { calls <- tc })
	callTool(t, c, "trestle_read", map[string]any{"path": "main.go"})
	callTool(t, c, "trestle_read", map[string]any{"path": "../secret"})
	callTool(t, c, "trestle_files", map[string]any{"glob": strings.Repeat("x", 200)})
	want := []struct{ tool, state, summary string }{
		{"trestle_read", "done", `{"path":"main.go"}`},
		{"trestle_read", "refused", `{"path":"../secret"}`},
		{"trestle_files", "done", `{"glob":"xxxx`},
	}
	for _, w := range want {
		start := <-calls
		got := <-calls
		if start.State != "running" || start.ID != got.ID {
			t.Fatalf("start %+v, end %+v", start, got)
		}
		if got.Tool != w.tool || got.State != w.state || got.Client != "tools-test" ||
			!strings.HasPrefix(got.Summary, w.summary) || len([]rune(got.Summary)) > summaryLen || got.Duration <= 0 {
			t.Fatalf("got %+v, want %+v", got, w)
		}
	}
}

func TestSearchTool(t *testing.T) {
	c := stdioClient(t, func(dir string) {
		os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("gen/\n"), 0o644)
		os.MkdirAll(filepath.Join(dir, "gen"), 0o755)
		os.WriteFile(filepath.Join(dir, "gen", "z.go"), []byte("package gen // println\n"), 0o644)
	})
	res, _ := callTool(t, c, "trestle_search", map[string]any{"pattern": "println"})
	if res.IsError || textOf(res) != "main.go:4:2: \tprintln(\"hi\")\n" || res.StructuredContent != nil {
		t.Fatalf("search: %q %v", textOf(res), res.StructuredContent)
	}
	res, sc := callTool(t, c, "trestle_search", map[string]any{"pattern": "(", "regexp": true})
	if !res.IsError || sc["state"] != "problem" || !strings.Contains(textOf(res), "regular expression") {
		t.Fatalf("bad regexp: %q", textOf(res))
	}
	res, _ = callTool(t, c, "trestle_search", map[string]any{"pattern": "nowhere to be found"})
	if res.IsError || !strings.HasPrefix(textOf(res), "No matches in ") {
		t.Fatalf("no matches: %q", textOf(res))
	}
}
