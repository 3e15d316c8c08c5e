package testfix

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestProjectWritesFilesUnderItsRealPath(t *testing.T) {
	dir := Project(t, map[string]string{"go.mod": "module m\n", "a/b/c.txt": "c"})
	if real, _ := filepath.EvalSymlinks(dir); real != dir {
		t.Fatalf("Project returned %s, its real path is %s", dir, real)
	}
	for name, want := range map[string]string{"go.mod": "module m\n", "a/b/c.txt": "c"} {
		if got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err != nil || string(got) != want {
			t.Errorf("%s: %q %v, want %q", name, got, err, want)
		}
	}
}

func TestWaitReturnsOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int32
	go func() {
		for range 3 {
			n.Add(1)
		}
	}()
	Wait(t, 10*time.Second, "three", func() bool { return n.Load() == 3 })
}

// TestWaitForReturnsWhatItSaw: WaitFor hands back the value that met the
// condition, polling at the pace Every asks.
func TestWaitForReturnsWhatItSaw(t *testing.T) {
	n := 0
	got := WaitFor(t, 30*time.Second, "the third look", func() (int, bool) {
		n++
		return n, n == 3
	}, Every(time.Millisecond))
	if got != 3 {
		t.Fatalf("WaitFor returned %d, want 3", got)
	}
}

// TestWaitForSaysWhatItLastSaw: a wait that runs out says what it waited
// for and what it saw last.
func TestWaitForSaysWhatItLastSaw(t *testing.T) {
	rec := &fatalRecorder{TB: t}
	WaitFor(rec, 20*time.Millisecond, "the file saved", func() (string, bool) { return "still unsaved", false })
	if !strings.Contains(rec.msg, "the file saved") || !strings.Contains(rec.msg, "last seen: still unsaved") {
		t.Fatalf("the failure says %q", rec.msg)
	}
	rec = &fatalRecorder{TB: t}
	Wait(rec, 20*time.Millisecond, "never", func() bool { return false })
	if rec.msg != "after 20ms: never" {
		t.Fatalf("Wait's failure says %q", rec.msg)
	}
}

// TestReceiveReturnsTheValueOrSaysWhatDidNotCome: Receive hands back what
// the channel sends, and after its bound says what never came.
func TestReceiveReturnsTheValueOrSaysWhatDidNotCome(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := Receive(t, 30*time.Second, "seven", ch); got != 7 {
		t.Fatalf("Receive returned %d, want 7", got)
	}
	rec := &fatalRecorder{TB: t}
	Receive(rec, 10*time.Millisecond, "the answer", ch)
	if rec.msg != "after 10ms: the answer" {
		t.Fatalf("the failure says %q", rec.msg)
	}
}

func TestServeStopsWithTheTest(t *testing.T) {
	var stopped atomic.Bool
	t.Run("serving", func(t *testing.T) {
		Serve(t, func(ctx context.Context) error {
			<-ctx.Done()
			stopped.Store(true)
			return ctx.Err()
		})
	})
	if !stopped.Load() {
		t.Fatal("the serve did not end with its test")
	}
}

func TestLoopbackHandlesEachConnection(t *testing.T) {
	port := Loopback(t, func(c net.Conn) {
		line, _ := bufio.NewReader(c).ReadString('\n')
		fmt.Fprintf(c, "echo %s", line)
	})
	for i := range 3 {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(c, "%d\n", i)
		got, err := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if err != nil || got != fmt.Sprintf("echo %d\n", i) {
			t.Fatalf("connection %d: %q %v", i, got, err)
		}
	}
}

// TestHostileGitRunsItsCommandsWhenTrusted: the fixture is hostile for
// real: a plain git status and diff of it run its filter, its included
// filter and its textconv, so a test that sees no mark saw them turned off.
func TestHostileGitRunsItsCommandsWhenTrusted(t *testing.T) {
	root := Project(t, map[string]string{"go.mod": "module example.com/h\n", "main.go": "package main\n"})
	marks := NewMarks(t)
	HostileGit(t, root, marks)
	os.WriteFile(filepath.Join(root, "main.go"), []byte("package main // changed\n"), 0o644)
	for _, args := range [][]string{{"status", "--porcelain"}, {"diff", "--textconv"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	left := strings.Join(marks.Left(), " ")
	for _, want := range []string{"clean", "included", "textconv"} {
		if !strings.Contains(left, want) {
			t.Fatalf("marks left by a plain git: %q, want %s among them", left, want)
		}
	}
}
