package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/store"
)

// TestHeadlessTrustE2E: the headless server on a project whose
// .trestle.json has a task of its own and a selection environment is
// untrusted by default (the task is refused, with how to trust; an
// evaluation does not get the environment, and is told); --trust trusts
// it for that run only; a trust the person gave in the window (the store)
// is used too.
func TestHeadlessTrustE2E(t *testing.T) {
	project := testProject(t)
	marker := filepath.Join(t.TempDir(), "ran")
	conf := `{"tasks": {"mine": {"command": ["sh", "-c", "touch ` + marker + `"]}},
		"selections": {"probe": {"env": {"TRESTLE_PROBE": "set-by-the-file"}}}}`
	os.WriteFile(filepath.Join(project, ".trestle.json"), []byte(conf), 0o644)
	config := t.TempDir()
	env := []string{"TRESTLE_CONFIG_DIR=" + config, "DISPLAY=", "TRESTLE_EVAL_NATIVE=off"} // the interpreter: no worker build
	probe := map[string]any{"code": "import \"os\"\nos.Getenv(\"TRESTLE_PROBE\")", "selection": "probe"}

	c := startClient(t, env, "untrusted", "--mcp", project)
	res, sc := call(t, c, "trestle_run", map[string]any{"task": "mine", "wait_seconds": 30})
	if !res.IsError || sc["state"] != "refused" || !strings.Contains(resultText(res), "--trust") {
		t.Fatalf("untrusted headless run of the file's task: %s", resultText(res))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the untrusted project's task ran")
	}
	res, _ = call(t, c, "trestle_eval", probe)
	if res.IsError || strings.Contains(resultText(res), `"set-by-the-file"`) || !strings.Contains(resultText(res), "TRESTLE_PROBE=set-by-the-file was not used") {
		t.Fatalf("untrusted evaluation in the selection with an environment: %s", resultText(res))
	}

	c = startClient(t, []string{"TRESTLE_CONFIG_DIR=" + t.TempDir(), "DISPLAY=", "TRESTLE_EVAL_NATIVE=off"}, "trusting", "--mcp", "--trust", project)
	if res, _ := call(t, c, "trestle_eval", probe); !strings.Contains(resultText(res), `"set-by-the-file"`) {
		t.Fatalf("trusted evaluation without the selection's environment: %s", resultText(res))
	}
	if res, _ := call(t, c, "trestle_run", map[string]any{"task": "mine", "wait_seconds": 30}); res.IsError {
		t.Fatalf("--trust: %s", resultText(res))
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("--trust did not run the project's task: %v", err)
	}
	os.Remove(marker)

	db, err := store.Open(filepath.Join(config, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.EvalSymlinks(project)
	if err := db.SetProjectTrusted(root, true); err != nil {
		t.Fatal(err)
	}
	c = startClient(t, env, "stored", "--mcp", project)
	if res, _ := call(t, c, "trestle_run", map[string]any{"task": "mine", "wait_seconds": 30}); res.IsError {
		t.Fatalf("trusted in the store: %s", resultText(res))
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the stored trust was not used: %v", err)
	}
}
