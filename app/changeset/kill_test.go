package changeset

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"trestle/app"
)

// killFiles is how many files the killed apply touches: enough that a kill
// lands while it is writing.
const killFiles = 120

func killBase(i int) string {
	return fmt.Sprintf("package p\n\n// file %d\n", i) + strings.Repeat("var x = 1\n", 400)
}
func killNew(i int) string { return strings.Replace(killBase(i), "// file", "// changed file", 1) }

// TestKillMidApplyLeavesNoHalfWrittenFile kills a process that is applying
// a change set (SIGKILL, at several moments) and checks that every file is
// then exactly its base or exactly its new content, never anything between.
func TestKillMidApplyLeavesNoHalfWrittenFile(t *testing.T) {
	// -1: as soon as the first file is renamed into place (mid-rename phase).
	for _, after := range []time.Duration{0, 10 * time.Millisecond, 60 * time.Millisecond, -1} {
		name := "after the first rename"
		if after >= 0 {
			name = after.String() + " after it starts"
		}
		t.Run(name, func(t *testing.T) {
			dir, store := t.TempDir(), filepath.Join(t.TempDir(), "state.db")
			files := map[string]string{}
			for i := range killFiles {
				files[fmt.Sprintf("f%03d.go", i)] = killBase(i)
			}
			p := newProjectIn(t, dir, files)
			s, err := app.OpenStore(store)
			if err != nil {
				t.Fatal(err)
			}
			var changes []Change
			for i := range killFiles {
				changes = append(changes, Change{Action: ActionReplace, Path: fmt.Sprintf("f%03d.go", i), Content: killNew(i)})
			}
			cs, err := NewManager(s, p).Propose(diskReader(p), Proposal{Title: "many", Changes: changes})
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidApplyHelper$")
			cmd.Env = append(os.Environ(), "TRESTLE_KILL_APPLY="+dir+"|"+store+"|"+cs.ID)
			ready, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			bufio.NewReader(ready).ReadString('\n') // the helper is about to apply
			if after >= 0 {
				time.Sleep(after)
			} else {
				waitForNew(t, filepath.Join(dir, "f000.go"), killNew(0))
			}
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			changed := 0
			for i := range killFiles {
				name := fmt.Sprintf("f%03d.go", i)
				data, err := os.ReadFile(filepath.Join(dir, name))
				switch {
				case err != nil:
					t.Fatalf("%s after the kill: %v", name, err)
				case string(data) == killNew(i):
					changed++
				case string(data) != killBase(i):
					t.Fatalf("%s is half-written after the kill (%d bytes)", name, len(data))
				}
			}
			t.Logf("killed %s: %d of %d files new, the rest old", name, changed, killFiles)
		})
	}
}

// TestKillMidApplyHelper is the process TestKillMidApplyLeavesNoHalfWrittenFile kills.
func TestKillMidApplyHelper(t *testing.T) {
	arg := os.Getenv("TRESTLE_KILL_APPLY")
	if arg == "" {
		t.Skip("helper process only")
	}
	parts := strings.SplitN(arg, "|", 3)
	p, err := app.OpenProject(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	s, err := app.OpenStore(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(s, p)
	fmt.Println("applying")
	if _, err := m.Apply(parts[2], nil, diskReader(p), nil); err != nil {
		t.Fatal(err)
	}
}

// newProjectIn writes files into dir and opens it as a project.
func newProjectIn(t *testing.T, dir string, files map[string]string) *app.Project {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := app.OpenProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// waitForNew polls path until it holds want (or 10 s pass).
func waitForNew(t *testing.T, path, want string) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if data, err := os.ReadFile(path); err == nil && string(data) == want {
			return
		}
	}
	t.Fatalf("%s never changed", path)
}
