package mcpbridge

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"trestle/app/permission"
	"trestle/app/services"
	"trestle/app/workbench"
)

// tabsWindow is a window with no tabs and no selection.
type tabsWindow struct{ openRecorder }

func (*tabsWindow) Tabs(context.Context) ([]workbench.Tab, error) { return []workbench.Tab{}, nil }

// TestWorkbenchDoesNotRunTheProjectsGitConfig is issue 11 item 5 through
// the tool: under deny, files at the project root (HEAD, config with
// worktree = . and core.fsmonitor = a command, objects/, refs/) made the
// root a bare repository, and trestle_workbench's git status ran the
// command. The files are written as an applied change set would.
func TestWorkbenchDoesNotRunTheProjectsGitConfig(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	marker := filepath.Join(t.TempDir(), "pwned")
	project := newTestProject(t)
	os.RemoveAll(filepath.Join(project.Root, ".git"))
	for name, text := range map[string]string{
		"HEAD":           "ref: refs/heads/main\n",
		"config":         "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"touch " + marker + "; false\"\n",
		"objects/info/x": "", "refs/heads/x": "",
	} {
		p := filepath.Join(project.Root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := NewServer(testAgent(project, &tabsWindow{}, services.Services{Gate: permission.NewGate(permission.PolicyDeny, nil)}), quiet())
	res := srv.workbench(context.Background(), workbenchParams{})
	if res.IsError {
		t.Fatalf("workbench: %s", textOf(res))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("under deny, trestle_workbench ran the project's git fsmonitor command")
	}
}
