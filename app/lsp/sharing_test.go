package lsp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"trestle/internal/testfix"
)

// BenchmarkGoplsSharing measures what issue 14 asked to decide on: a
// window and a headless server on the same project (two clients on one
// copy of go.etcd.io/bbolt), each with its own gopls ("separate"), or
// both forwarded to one shared daemon with gopls -remote=auto ("remote").
// Per mode: the time from starting each client to its first answer (a
// hover; the second client starts once the first has answered), and the
// resident memory of every gopls process (forwarders and daemon included)
// once both have settled. The remote mode also checks soundness: two
// different unsaved texts of one file, the daemon's life after both
// clients close, and a killed daemon.
//
//	go test -run '^$' -bench GoplsSharing -benchtime 1x -count 3 ./app/lsp/
func BenchmarkGoplsSharing(b *testing.B) {
	needGopls(b)
	root := testfix.CopyBbolt(b)
	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
	id := make([]byte, 4)
	rand.Read(id)
	remote := []string{"-remote=auto;trestle-bench-" + hex.EncodeToString(id), "-remote.listen.timeout=3s"}
	for _, m := range []struct {
		name string
		args []string
	}{{"separate", nil}, {"remote", remote}} {
		b.Run(m.name, func(b *testing.B) {
			var first, second, rss float64
			for b.Loop() {
				f, s, r := shareOnce(b, root, env, m.args)
				first, second, rss = first+f, second+s, rss+r
			}
			n := float64(b.N)
			b.ReportMetric(first/n, "first-client-ms")
			b.ReportMetric(second/n, "second-client-ms")
			b.ReportMetric(rss/n, "gopls-total-MiB")
		})
	}
	b.Run("remote-soundness", func(b *testing.B) {
		for b.Loop() {
			remoteSoundness(b, root, env, remote)
		}
	})
}

// shareOnce starts two clients one after the other and measures them.
func shareOnce(b *testing.B, root string, env, args []string) (first, second, rss float64) {
	ctx := ctxFor(b)
	at := posOf(b, root, "db.go", "db.Begin(true)", 0, 3)
	start := func() (*Client, float64) {
		c := New(Config{Root: root, Env: env, Args: args, Logger: testLogger(b)})
		t0 := time.Now()
		if _, err := c.Hover(ctx, "db.go", at); err != nil {
			b.Fatal(err)
		}
		return c, float64(time.Since(t0).Microseconds()) / 1000
	}
	a, first := start()
	c, second := start()
	a.Settle(ctx, 3*time.Second)
	c.Settle(ctx, 3*time.Second)
	daemons := goplsDaemons(args)
	var each []string
	for _, pid := range append([]int{a.PID(), c.PID()}, daemons...) {
		rss += rssMiB(pid)
		each = append(each, strconv.FormatFloat(rssMiB(pid), 'f', 0, 64))
	}
	b.Logf("RSS MiB of each gopls (clients' first, then the daemon): %s", strings.Join(each, " "))
	a.Close()
	c.Close()
	for _, pid := range daemons { // gone after -remote.listen.timeout without clients
		waitGone(b, pid, time.Minute)
	}
	return first, second, rss
}

// remoteSoundness checks the daemon with two clients: each sees its own
// unsaved text of db.go; a killed daemon takes both forwarders down, and
// both come back (through a new daemon) by the client's restart; after
// both close, the daemon outlives them until its timeout.
func remoteSoundness(b *testing.B, root string, env, args []string) {
	ctx := ctxFor(b)
	a := New(Config{Root: root, Env: env, Args: args, Logger: testLogger(b)})
	c := New(Config{Root: root, Env: env, Args: args, Logger: testLogger(b)})
	defer a.Close()
	defer c.Close()
	at := posOf(b, root, "db.go", "db.Begin(true)", 0, 3)
	for _, cl := range []*Client{a, c} {
		if _, err := cl.Hover(ctx, "db.go", at); err != nil {
			b.Fatal(err)
		}
	}
	disk, _ := os.ReadFile(filepath.Join(root, "db.go"))
	a.OpenDocument("db.go", string(disk)+"\nvar _ int = \"only in a\"\n")
	c.OpenDocument("db.go", string(disk)+"\nvar _ = onlyInC\n")
	saw := func(cl *Client, want string) bool {
		for _, d := range cl.Diagnostics("db.go") {
			if strings.Contains(d.Message, want) {
				return true
			}
		}
		return false
	}
	waitFor(b, "each client's own unsaved error", func() bool { return saw(a, "only in a") && saw(c, "onlyInC") })
	b.Logf("overlays: a sees its error and c's: %v/%v; c sees a's: %v", saw(a, "only in a"), saw(a, "onlyInC"), saw(c, "only in a"))

	daemons := goplsDaemons(args)
	if len(daemons) != 1 {
		b.Fatalf("daemons %v, want one", daemons)
	}
	oldA, oldC := a.PID(), c.PID()
	syscall.Kill(daemons[0], syscall.SIGKILL)
	t0 := time.Now()
	for _, cl := range []*Client{a, c} {
		waitFor(b, "an answer after the daemon was killed", func() bool {
			hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			_, err := cl.Hover(hctx, "db.go", at)
			return err == nil
		})
	}
	b.Logf("daemon killed: forwarders %d,%d replaced by %d,%d; both answer again after %s (restarts %d, %d)",
		oldA, oldC, a.PID(), c.PID(), time.Since(t0).Round(time.Millisecond), a.Status().Restarts, c.Status().Restarts)
	daemons = goplsDaemons(args)
	a.Close()
	c.Close()
	t1 := time.Now()
	for _, pid := range daemons {
		alive := pidAlive(pid)
		waitGone(b, pid, time.Minute)
		b.Logf("after both clients closed, daemon %d alive: %v, gone after %s", pid, alive, time.Since(t1).Round(100*time.Millisecond))
	}
}

// goplsDaemons are the pids of gopls daemons serving the -remote=auto id
// in args ("-listen" with that id on their command line).
func goplsDaemons(args []string) []int {
	var id string
	for _, a := range args {
		if s, ok := strings.CutPrefix(a, "-remote=auto;"); ok {
			id = s
		}
	}
	if id == "" {
		return nil
	}
	var out []int
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if s := string(cmdline); strings.Contains(s, "-listen") && strings.Contains(s, id) {
			out = append(out, pid)
		}
	}
	return out
}

func pidAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err == nil && !strings.Contains(string(b), ") Z ")
}

func waitGone(tb testing.TB, pid int, bound time.Duration) {
	tb.Helper()
	testfix.Wait(tb, bound, fmt.Sprintf("process %d gone", pid), func() bool { return !pidAlive(pid) }, testfix.Every(50*time.Millisecond))
}

// TestSeparateGoplsPerMode pins the decision BenchmarkGoplsSharing
// informed: each client (the window's, a headless server's) runs a gopls
// of its own, a child of this process in a process group of its own (so
// that killing the group takes everything gopls started down with it),
// with no -remote flag; each sees only its own unsaved text; and nothing
// outlives Close.
func TestSeparateGoplsPerMode(t *testing.T) {
	root := copyFixture(t)
	ctx := ctxFor(t)
	window, headless := newClient(t, root, Config{}), newClient(t, root, Config{})
	text, err := os.ReadFile(filepath.Join(root, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	window.OpenDocument("main.go", string(text)+"\nvar _ = onlyInTheWindow\n")
	headless.OpenDocument("main.go", string(text)+"\nvar _ = onlyHeadless\n")
	var pids []int
	for _, c := range []*Client{window, headless} {
		if err := c.Settle(ctx, 0); err != nil {
			t.Fatal(err)
		}
		pid := c.PID()
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:])) // state ppid pgrp ...
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if f[1] != strconv.Itoa(os.Getpid()) || f[2] != strconv.Itoa(pid) || strings.Contains(string(cmdline), "-remote") {
			t.Fatalf("gopls %d: parent %s, group %s, command line %q; want a child of ours leading its own group, no -remote",
				pid, f[1], f[2], strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
		pids = append(pids, pid)
	}
	if pids[0] == pids[1] {
		t.Fatalf("both clients talk to gopls %d", pids[0])
	}
	sees := func(c *Client, name string) bool {
		for _, d := range c.Diagnostics("main.go") {
			if strings.Contains(d.Message, name) {
				return true
			}
		}
		return false
	}
	waitFor(t, "each client's own unsaved error", func() bool { return sees(window, "onlyInTheWindow") && sees(headless, "onlyHeadless") })
	if sees(window, "onlyHeadless") || sees(headless, "onlyInTheWindow") {
		t.Fatal("one client's unsaved text reached the other's diagnostics")
	}
	window.Close()
	headless.Close()
	for _, pid := range pids {
		if pidAlive(pid) {
			t.Errorf("gopls %d outlived its client's Close", pid)
		}
	}
}
