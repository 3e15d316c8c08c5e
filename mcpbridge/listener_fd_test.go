//go:build linux

package mcpbridge

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fdChildEnv makes the test binary the window of
// TestListenerSurvivesDescriptorExhaustion: a listener in a process
// allowed only fdChildLimit descriptors.
const (
	fdChildEnv   = "TRESTLE_TEST_FD_CHILD"
	fdChildLimit = 40
)

// TestListenerSurvivesDescriptorExhaustion floods a window whose process
// may open only 40 descriptors with 200 silent connections: accept fails
// with "too many open files" (which used to end Serve for good, while the
// registry still sent agents there), the listener backs off and retries,
// and once the flood is gone a client with the token is served.
func TestListenerSurvivesDescriptorExhaustion(t *testing.T) {
	if os.Getenv(fdChildEnv) == "1" {
		fdChild(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestListenerSurvivesDescriptorExhaustion$", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), fdChildEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() }()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func(prefix string) string {
		t.Helper()
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("the child ended before %q", prefix)
				}
				if rest, found := strings.CutPrefix(line, prefix); found {
					return rest
				}
			case <-time.After(60 * time.Second):
				t.Fatalf("no %q from the child", prefix)
			}
		}
	}
	var addr, token string
	fmt.Sscanf(next("listening "), "%s %s", &addr, &token)

	flood := make([]net.Conn, 0, 200)
	for range cap(flood) {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			break // the backlog is full: the flood has done its work
		}
		flood = append(flood, c)
	}
	next("accept failed ") // the child ran out of descriptors
	for _, c := range flood {
		c.Close()
	}
	l := testListener{token: token}
	rc := dial(t, addr)
	rc.c.SetDeadline(time.Now().Add(60 * time.Second))
	rc.sendf(`{"trestle_token":%q}`, l.token)
	if line, err := rc.r.ReadString('\n'); err != nil || !strings.Contains(line, `"ready"`) {
		t.Fatalf("after the flood: %q, %v (the listener stopped accepting)", line, err)
	}
	rc.initialize("after-the-flood")
	t.Logf("%d flood connections; the client was served after", len(flood))
}

// fdChild is the window: it serves a listener with a short handshake bound,
// lowers its descriptor limit, says where it listens and when accept first
// fails, and runs until its stdin closes.
func fdChild(t *testing.T) {
	l := startCountingListener(t, 500*time.Millisecond)
	lim := syscall.Rlimit{Cur: fdChildLimit, Max: fdChildLimit}
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	lim.Max = old.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("listening %s %s\n", l.Addr(), l.token)
	go func() {
		for l.acceptRetries.Load() == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		fmt.Printf("accept failed %d\n", l.acceptRetries.Load())
	}()
	os.Stdin.Read(make([]byte, 1))
	syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) // the cleanup may open files
}
