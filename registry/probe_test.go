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

func TestAnswersNeedsTheWindowToAcceptTheToken(t *testing.T) {
	serve := func(reply bool) int {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				if reply { // as a window with another token does
					c.Write([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"refused: wrong token"}}` + "\n"))
					c.Close()
				} else {
					defer c.Close() // silent: the token was right
				}
			}
		}()
		return ln.Addr().(*net.TCPAddr).Port
	}
	tests := []struct {
		name string
		port int
		want bool
	}{
		{"accepts the token", serve(false), true},
		{"refuses the token", serve(true), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Answers(Entry{Port: tt.port, Token: "ab"}, ProbeTimeout); got != tt.want {
				t.Fatalf("Answers = %v, want %v", got, tt.want)
			}
		})
	}
}
