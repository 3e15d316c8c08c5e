package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"

	"trestle/app/errdefs"
	"trestle/app/permission"
)

func TestSettingsRoundTripAndValidate(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Settings()
	if err != nil || got != DefaultSettings() {
		t.Fatalf("defaults: %+v %v", got, err)
	}
	want := Settings{Listener: false, TabWidth: 8, Theme: ThemeLight, FontSize: 16, HideIgnored: true}
	if err := s.SaveSettings(want); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Settings(); got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	bad := []Settings{
		{TabWidth: 0, Theme: ThemeDark},
		{TabWidth: 4, Theme: "purple"},
		{TabWidth: 4, Theme: ThemeDark, FontSize: 100},
		{TabWidth: 4, Theme: ThemeDark, EvalDeadline: MaxEvalDeadline + 1},
		{TabWidth: 4, Theme: ThemeDark, EvalMemoryMiB: MinEvalMemoryMiB - 1},
		{TabWidth: 4, Theme: ThemeDark, EvalMemoryMiB: -1},
		{TabWidth: 4, Theme: ThemeDark, UnsavedBeforeRun: "sometimes"},
	}
	for _, b := range bad {
		if err := s.SaveSettings(b); !errors.Is(err, errdefs.ErrInvalid) {
			t.Errorf("SaveSettings(%+v) = %v, want ErrInvalid", b, err)
		}
	}
}

func TestProjectStateAndRecent(t *testing.T) {
	s, _ := Open(filepath.Join(t.TempDir(), "state.db"))
	a, b := t.TempDir(), t.TempDir()
	st := ProjectState{Policy: permission.PolicyAllow, Width: 900, Tabs: []string{"main.go"}, ActiveTab: "main.go"}
	if err := s.SaveProjectState(a, st); err != nil {
		t.Fatal(err)
	}
	got, err := s.ProjectState(a)
	if err != nil || got.Policy != permission.PolicyAllow || got.Tabs[0] != "main.go" || got.Width != 900 {
		t.Fatalf("got %+v %v", got, err)
	}
	if err := s.SaveProjectState(a, ProjectState{Policy: "sometimes"}); !errors.Is(err, errdefs.ErrInvalid) {
		t.Fatalf("bad policy: %v", err)
	}
	if got, _ := s.ProjectState(b); got.Policy != "" {
		t.Fatalf("unknown project: %+v", got)
	}
	s.TouchProject(a)
	s.TouchProject(b)
	os.Remove(a)
	dirs, err := s.RecentProjects()
	if err != nil || len(dirs) != 1 || dirs[0] != b {
		t.Fatalf("recent: %v %v", dirs, err)
	}
}

// TestStoreSharedByTwoProcesses: another process writing to the store at
// the same time neither blocks this one for long nor loses writes.
func TestStoreSharedByTwoProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	if _, err := Open(path); err != nil {
		t.Fatal(err)
	}
	const n = 30
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreHelperProcess$")
	cmd.Env = append(os.Environ(), "TRESTLE_STORE_HELPER="+path)
	var wg sync.WaitGroup
	var childErr error
	var childOut []byte
	wg.Go(func() { childOut, childErr = cmd.CombinedOutput() })
	s, _ := Open(path)
	for i := range n {
		if err := s.TouchProject(fmt.Sprintf("/parent/%d", i)); err != nil {
			t.Fatalf("parent write %d: %v", i, err)
		}
	}
	wg.Wait()
	if childErr != nil {
		t.Fatalf("child: %v\n%s", childErr, childOut)
	}
	count := 0
	s.view(func(tx *bolt.Tx) error {
		count = tx.Bucket(bucketRecent).Stats().KeyN
		return nil
	})
	if count != 2*n {
		t.Fatalf("%d recent entries, want %d", count, 2*n)
	}
}

// TestStoreHelperProcess is the other process of TestStoreSharedByTwoProcesses.
func TestStoreHelperProcess(t *testing.T) {
	path := os.Getenv("TRESTLE_STORE_HELPER")
	if path == "" {
		t.Skip("helper process only")
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		if err := s.TouchProject(fmt.Sprintf("/child/%d", i)); err != nil {
			t.Fatalf("child write %d: %v", i, err)
		}
	}
}

// TestRecentProjectsOnlyReads: while every remembered folder exists,
// listing the recent projects takes no write lock, so it answers while
// another opening of the store holds it to read (a write would wait for
// it, then fail busy), and readers of the store never wait for it: the
// window lists them as it starts, beside an agent's first calls.
func TestRecentProjectsOnlyReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	s.TouchProject(a)
	s.TouchProject(b)
	reader, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := s.RecentProjects()
	reader.Close()
	if err != nil || len(dirs) != 2 || dirs[0] != b || dirs[1] != a {
		t.Fatalf("recent while another opening reads: %v %v", dirs, err)
	}
}
