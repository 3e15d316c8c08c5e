package registry

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sample returns a plausible entry for pid.
func sample(pid int, dir string) Entry {
	return Entry{
		PID:     pid,
		Port:    40000 + pid%1000,
		Dir:     dir,
		Token:   strings.Repeat("ab", 32),
		Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Version: "0.1.0",
	}
}

// deadPID returns the pid of a process that has exited and been waited for.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start true: %v", err)
	}
	pid := cmd.Process.Pid
	if err := cmd.Wait(); err != nil {
		t.Fatalf("wait: %v", err)
	}
	return pid
}

func TestWritePermissions(t *testing.T) {
	tests := []struct {
		name    string
		premode os.FileMode // 0 means the folder does not exist yet
	}{
		{name: "new folder"},
		{name: "existing 0755 folder", premode: 0o755},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "instances")
			if tt.premode != 0 {
				if err := os.Mkdir(dir, tt.premode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(dir, tt.premode); err != nil {
					t.Fatal(err)
				}
			}
			if err := New(dir).Write(sample(os.Getpid(), "/p")); err != nil {
				t.Fatalf("Write: %v", err)
			}
			assertMode(t, dir, 0o700)
			assertMode(t, filepath.Join(dir, strconv.Itoa(os.Getpid())+".json"), 0o600)
		})
	}
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Mode().Perm(); got != want {
		t.Errorf("%s mode = %o, want %o", path, got, want)
	}
}

func TestWriteFileFormat(t *testing.T) {
	tests := []struct {
		name  string
		entry Entry
	}{
		{name: "utc start", entry: sample(os.Getpid(), "/home/u/proj")},
		{name: "zoned start", entry: func() Entry {
			e := sample(os.Getpid(), "/home/u/other")
			e.Started = time.Date(2025, 6, 1, 12, 0, 0, 0, time.FixedZone("X", 3600))
			return e
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := New(dir).Write(tt.entry); err != nil {
				t.Fatalf("Write: %v", err)
			}
			data, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(tt.entry.PID)+".json"))
			if err != nil {
				t.Fatal(err)
			}
			checkKeys(t, data)
			var got Entry
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatalf("unmarshal: %v", err)
			}
			if !got.Started.Equal(tt.entry.Started) {
				t.Errorf("started = %v, want %v", got.Started, tt.entry.Started)
			}
			got.Started = tt.entry.Started
			if got != tt.entry {
				t.Errorf("round trip = %+v, want %+v", got, tt.entry)
			}
		})
	}
}

// checkKeys asserts the JSON object has exactly the documented keys and an
// RFC 3339 start time.
func checkKeys(t *testing.T, data []byte) {
	t.Helper()
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("unmarshal raw: %v", err)
	}
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"dir", "pid", "port", "started", "token", "version"}
	if !slices.Equal(keys, want) {
		t.Errorf("keys = %v, want %v", keys, want)
	}
	s, _ := raw["started"].(string)
	if _, err := time.Parse(time.RFC3339, s); err != nil {
		t.Errorf("started %q is not RFC 3339: %v", s, err)
	}
}

func TestWriteLeavesNoTemp(t *testing.T) {
	tests := []struct {
		name   string
		writes int
	}{
		{name: "one write", writes: 1},
		{name: "overwrite", writes: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := New(dir)
			for i := range tt.writes {
				e := sample(os.Getpid(), "/p")
				e.Port = 5000 + i
				if err := r.Write(e); err != nil {
					t.Fatalf("Write: %v", err)
				}
			}
			names := listNames(t, dir)
			want := []string{strconv.Itoa(os.Getpid()) + ".json"}
			if !slices.Equal(names, want) {
				t.Errorf("folder holds %v, want %v", names, want)
			}
		})
	}
}

func listNames(t *testing.T, dir string) []string {
	t.Helper()
	items, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, it := range items {
		names = append(names, it.Name())
	}
	return names
}

func TestWriteRejectsBadPID(t *testing.T) {
	tests := []struct {
		name string
		pid  int
	}{
		{name: "zero", pid: 0},
		{name: "negative", pid: -4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := New(t.TempDir()).Write(sample(tt.pid, "/p")); err == nil {
				t.Error("Write succeeded, want error")
			}
		})
	}
}

func TestRemove(t *testing.T) {
	tests := []struct {
		name    string
		written bool
		noDir   bool
	}{
		{name: "existing entry", written: true},
		{name: "missing entry"},
		{name: "missing folder", noDir: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.noDir {
				dir = filepath.Join(dir, "absent")
			}
			r := New(dir)
			if tt.written {
				if err := r.Write(sample(os.Getpid(), "/p")); err != nil {
					t.Fatal(err)
				}
			}
			if err := r.Remove(os.Getpid()); err != nil {
				t.Fatalf("Remove: %v", err)
			}
			if _, err := os.Stat(r.path(os.Getpid())); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("entry still present: %v", err)
			}
		})
	}
}

func TestReap(t *testing.T) {
	dead := deadPID(t)
	tests := []struct {
		name     string
		setup    func(t *testing.T, dir string)
		wantPIDs []int
		wantLeft []string
	}{
		{name: "missing folder"},
		{
			name: "dead pid, corrupt file and stale temp removed, self kept",
			setup: func(t *testing.T, dir string) {
				r := New(dir)
				must(t, r.Write(sample(os.Getpid(), "/live")))
				must(t, r.Write(sample(dead, "/dead")))
				must(t, os.WriteFile(filepath.Join(dir, "777.json"), []byte("{not json"), 0o600))
				old := filepath.Join(dir, ".9-123.tmp")
				must(t, os.WriteFile(old, []byte("x"), 0o600))
				past := time.Now().Add(-2 * time.Minute)
				must(t, os.Chtimes(old, past, past))
				must(t, os.WriteFile(filepath.Join(dir, ".9-456.tmp"), []byte("x"), 0o600))
			},
			wantPIDs: []int{os.Getpid()},
			wantLeft: []string{".9-456.tmp", strconv.Itoa(os.Getpid()) + ".json"},
		},
		{
			name: "file named for another pid is removed",
			setup: func(t *testing.T, dir string) {
				data, _ := json.Marshal(sample(os.Getpid(), "/x"))
				must(t, os.WriteFile(filepath.Join(dir, "12.json"), data, 0o600))
			},
			wantLeft: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "instances")
			if tt.setup != nil {
				must(t, os.Mkdir(dir, 0o700))
				tt.setup(t, dir)
			}
			live, err := New(dir).Reap()
			if err != nil {
				t.Fatalf("Reap: %v", err)
			}
			if got := pids(live); !slices.Equal(got, tt.wantPIDs) {
				t.Errorf("live pids = %v, want %v", got, tt.wantPIDs)
			}
			if tt.setup == nil {
				return
			}
			if got := listNames(t, dir); !slices.Equal(got, tt.wantLeft) {
				t.Errorf("left in folder %v, want %v", got, tt.wantLeft)
			}
		})
	}
}

func TestReapSortsByStarted(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	// Only our own pid and our parent are reliably alive.
	tests := []struct {
		name  string
		pid   int
		start time.Time
	}{
		{name: "self, later", pid: os.Getpid(), start: base.Add(time.Hour)},
		{name: "parent, earlier", pid: os.Getppid(), start: base},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := sample(tt.pid, "/p")
			e.Started = tt.start
			must(t, New(dir).Write(e))
		})
	}
	live, err := New(dir).Reap()
	must(t, err)
	if got, want := pids(live), []int{os.Getppid(), os.Getpid()}; !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestAlive(t *testing.T) {
	tests := []struct {
		name string
		pid  int
		want bool
	}{
		{name: "self", pid: os.Getpid(), want: true},
		{name: "zero", pid: 0, want: false},
		{name: "negative", pid: -1, want: false},
		{name: "exited child", pid: deadPID(t), want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Alive(tt.pid); got != tt.want {
				t.Errorf("Alive(%d) = %v, want %v", tt.pid, got, tt.want)
			}
		})
	}
}

func TestDiscover(t *testing.T) {
	ab := sample(101, "/a/b")
	abc := sample(102, "/a/b/c")
	bc := sample(103, "/a/bc")
	other := sample(104, "/z/y")
	tests := []struct {
		name    string
		entries []Entry
		dir     string
		cwd     string
		wantPID int
		errHas  []string
	}{
		{name: "exact dir", entries: []Entry{ab, other}, dir: "/a/b", wantPID: 101},
		{name: "dir inside entry", entries: []Entry{ab, other}, dir: "/a/b/x/y", wantPID: 101},
		{name: "nested picks deepest", entries: []Entry{ab, abc}, dir: "/a/b/c/d", wantPID: 102},
		{name: "nested picks deepest, reversed", entries: []Entry{abc, ab}, dir: "/a/b/c", wantPID: 102},
		{name: "nested shallower match", entries: []Entry{abc, ab}, dir: "/a/b/d", wantPID: 101},
		{name: "sibling prefix does not match", entries: []Entry{ab, other}, dir: "/a/bc", errHas: []string{"/a/bc", "101", "104"}},
		{name: "sibling entry chosen over prefix", entries: []Entry{ab, bc}, dir: "/a/bc/x", wantPID: 103},
		{name: "dir given, one unrelated entry is no match", entries: []Entry{other}, dir: "/a/b", cwd: "/z/y", errHas: []string{"104"}},
		{name: "empty dir uses cwd", entries: []Entry{ab, abc, other}, cwd: "/a/b/c/q", wantPID: 102},
		{name: "empty dir, one entry, unrelated cwd", entries: []Entry{ab}, cwd: "/elsewhere", wantPID: 101},
		{name: "empty dir, empty cwd, one entry", entries: []Entry{other}, wantPID: 104},
		{
			name: "two entries unrelated cwd", entries: []Entry{ab, other}, cwd: "/elsewhere",
			errHas: []string{"/elsewhere", "101", "104", "/a/b", "/z/y", "trestle --mcp-attach DIR"},
		},
		{name: "zero entries", cwd: "/elsewhere", errHas: []string{"no Trestle window is open", "trestle DIR"}},
		{name: "zero entries with dir", dir: "/a/b", errHas: []string{"no Trestle window is open", "/a/b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Discover(tt.entries, tt.dir, tt.cwd)
			if tt.errHas == nil {
				if err != nil {
					t.Fatalf("Discover: %v", err)
				}
				if got.PID != tt.wantPID {
					t.Errorf("picked pid %d, want %d", got.PID, tt.wantPID)
				}
				return
			}
			checkNoMatch(t, err, tt.errHas)
		})
	}
}

func checkNoMatch(t *testing.T, err error, want []string) {
	t.Helper()
	var nm *NoMatchError
	if !errors.As(err, &nm) {
		t.Fatalf("error = %v (%T), want *NoMatchError", err, err)
	}
	msg := nm.Error()
	for _, s := range want {
		if !strings.Contains(msg, s) {
			t.Errorf("message %q lacks %q", msg, s)
		}
	}
}

func TestDiscoverResolvesSymlinks(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	link := filepath.Join(root, "link")
	must(t, os.Mkdir(real, 0o700))
	must(t, os.Symlink(real, link))
	resolved, err := filepath.EvalSymlinks(real)
	must(t, err)
	entries := []Entry{sample(201, resolved), sample(202, "/z")}
	tests := []struct {
		name     string
		dir, cwd string
	}{
		{name: "dir through symlink", dir: link},
		{name: "cwd through symlink", cwd: link},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Discover(entries, tt.dir, tt.cwd)
			if err != nil {
				t.Fatalf("Discover: %v", err)
			}
			if got.PID != 201 {
				t.Errorf("picked pid %d, want 201", got.PID)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		name    string
		entries []Entry
		want    []string
	}{
		{name: "empty", want: []string{"no Trestle windows are open"}},
		{
			name:    "two rows",
			entries: []Entry{sample(7, "/a/b"), sample(12345, "/very/long/project/path")},
			want:    []string{"PID", "PORT", "PROJECT", "STARTED", "7", "12345", "/a/b", "/very/long/project/path"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Format(tt.entries)
			for _, s := range tt.want {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			checkAligned(t, out)
		})
	}
}

// checkAligned asserts the PROJECT column starts at the same offset on
// every line of a table.
func checkAligned(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 {
		return
	}
	col := strings.Index(lines[0], "PROJECT")
	for _, l := range lines[1:] {
		if len(l) <= col || l[col] == ' ' || l[col-1] != ' ' {
			t.Errorf("line %q not aligned at column %d", l, col)
		}
	}
}

func pids(es []Entry) []int {
	var out []int
	for _, e := range es {
		out = append(out, e.PID)
	}
	return out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
