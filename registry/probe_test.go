package registry

import (
	"net"
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestReapUnansweredDropsAPidThatIsNotAWindow(t *testing.T) {
	r := New(t.TempDir())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// A live process that is not a Trestle window: its entry names a port nobody listens on.
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closedPort := closed.Addr().(*net.TCPAddr).Port
	closed.Close()

	answering := Entry{PID: os.Getppid(), Port: ln.Addr().(*net.TCPAddr).Port, Dir: "/a", Token: "t", Started: time.Now()}
	reused := Entry{PID: other.Process.Pid, Port: closedPort, Dir: "/b", Token: "t", Started: time.Now()}
	must(t, r.Write(answering))
	must(t, r.Write(reused))
	live, err := r.ReapUnanswered(ProbeTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].PID != answering.PID {
		t.Fatalf("live = %+v", live)
	}
	if _, err := os.Stat(r.path(reused.PID)); !os.IsNotExist(err) {
		t.Fatalf("the reused pid's entry is still there: %v", err)
	}
}
