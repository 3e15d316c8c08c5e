package registry

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// fakeWindow listens on loopback and answers each line a client sends as
// answer says (nil: say nothing, as a foreign program that accepts
// connections and stays silent). It returns the port and a function that
// returns everything clients sent it.
func fakeWindow(t *testing.T, answer func(line []byte) []byte) (int, func() string) {
	t.Helper()
	var mu sync.Mutex
	var got strings.Builder
	port := testfix.Loopback(t, func(c net.Conn) {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadBytes('\n')
			mu.Lock()
			got.Write(line)
			mu.Unlock()
			if err != nil {
				return
			}
			if out := answer(bytes.TrimSpace(line)); out != nil {
				c.Write(out)
			}
		}
	})
	return port, func() string { mu.Lock(); defer mu.Unlock(); return got.String() }
}

// window answers as a window holding token does.
func window(token string) func([]byte) []byte {
	return func(line []byte) []byte {
		if h, tl, ok := ParseFirst(line); ok && h.Nonce != "" {
			return Line(Proof{Proof: ProveWindow(token, h.Nonce)})
		} else if ok && tl.Token == token {
			return WelcomeLine(Welcome{State: WelcomeReady})
		}
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"refused: wrong token"}}` + "\n")
	}
}

func silent([]byte) []byte { return nil }

// impostor speaks the handshake without knowing the token: it answers a
// proof it cannot compute and welcomes any token line.
func impostor(line []byte) []byte {
	if h, _, ok := ParseFirst(line); ok && h.Nonce != "" {
		return Line(Proof{Proof: strings.Repeat("0", 64)})
	}
	return WelcomeLine(Welcome{State: WelcomeReady})
}

// sleeper is a live process that is not a Trestle window.
func sleeper(t *testing.T) int {
	t.Helper()
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Process.Kill(); other.Wait() })
	return other.Process.Pid
}

// TestReapUnansweredDropsAPidThatIsNotAWindow registers four live pids:
// one whose port proves its token, one whose port nobody listens on, one
// whose port is held by a silent foreign listener (the pid-reuse attack:
// silence used to count as a window that accepted the token) and one held
// by an impostor that speaks the handshake. Only the first survives, and
// the token never reaches the others.
func TestReapUnansweredDropsAPidThatIsNotAWindow(t *testing.T) {
	r := New(t.TempDir())
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closedPort := closed.Addr().(*net.TCPAddr).Port
	closed.Close()

	const token = "5ecret5ecret5ecret5ecret5ecret5ecret5ecret5ecret5ecret5ecret5ecr"
	winPort, _ := fakeWindow(t, window(token))
	silentPort, silentGot := fakeWindow(t, silent)
	impostorPort, impostorGot := fakeWindow(t, impostor)
	answering := Entry{PID: os.Getppid(), Port: winPort, Dir: "/a", Token: token, Started: time.Now()}
	nobody := Entry{PID: sleeper(t), Port: closedPort, Dir: "/b", Token: token, Started: time.Now()}
	foreign := Entry{PID: sleeper(t), Port: silentPort, Dir: "/c", Token: token, Started: time.Now()}
	fake := Entry{PID: sleeper(t), Port: impostorPort, Dir: "/d", Token: token, Started: time.Now()}
	for _, e := range []Entry{answering, nobody, foreign, fake} {
		must(t, r.Write(e))
	}
	start := time.Now()
	live, err := r.ReapUnanswered(ProbeTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].PID != answering.PID {
		t.Fatalf("live = %+v", live)
	}
	for _, gone := range []Entry{nobody, foreign, fake} {
		if _, err := os.Stat(r.path(gone.PID)); !os.IsNotExist(err) {
			t.Fatalf("the entry of pid %d (%s) is still there: %v", gone.PID, gone.Dir, err)
		}
	}
	if took := time.Since(start); took > ProbeTimeout+5*time.Second {
		t.Fatalf("reaping took %v", took)
	}
	for name, got := range map[string]string{"silent": silentGot(), "impostor": impostorGot()} {
		if strings.Contains(got, token) {
			t.Errorf("the %s listener was sent the token: %q", name, got)
		}
	}
}

func TestAnswersNeedsTheProof(t *testing.T) {
	tests := []struct {
		name   string
		answer func([]byte) []byte
		want   bool
	}{
		{"proves the token", window("ab"), true},
		{"another window's token", window("other"), false},
		{"silent", silent, false},
		{"an impostor", impostor, false},
		{"says something else", func([]byte) []byte { return []byte("SSH-2.0-OpenSSH_9.6\r\n") }, false},
		{"busy with a flood (kept: the bridge checks the proof)", func([]byte) []byte {
			return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32012,"message":"refused: 64 connections are already waiting"}}` + "\n")
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			port, got := fakeWindow(t, tt.answer)
			if ok := Answers(Entry{Port: port, Token: "ab"}, ProbeTimeout); ok != tt.want {
				t.Fatalf("Answers = %v, want %v", ok, tt.want)
			}
			if strings.Contains(got(), `"trestle_token"`) {
				t.Fatalf("the probe sent the token: %q", got())
			}
		})
	}
}

// TestGreetSaysWhatItGot checks the bridge-side handshake's outcomes, and
// that the token goes only to a listener that proved it knows it.
func TestGreetSaysWhatItGot(t *testing.T) {
	dial := func(port int) net.Conn {
		c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	port, _ := fakeWindow(t, window("ab"))
	if w, err := Greet(dial(port), "ab", false, ProbeTimeout); err != nil || w.State != WelcomeReady {
		t.Fatalf("welcome: %+v, %v", w, err)
	}
	port, _ = fakeWindow(t, func(line []byte) []byte {
		if h, _, ok := ParseFirst(line); ok && h.Nonce != "" {
			return Line(Proof{Proof: ProveWindow("ab", h.Nonce)})
		}
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"refused: wrong token"}}` + "\n")
	})
	var re *RefusedError
	if _, err := Greet(dial(port), "ab", false, ProbeTimeout); !errors.As(err, &re) || re.Message != "refused: wrong token" {
		t.Fatalf("refusal: %v", err)
	}
	for name, answer := range map[string]func([]byte) []byte{"silent": silent, "impostor": impostor} {
		port, got := fakeWindow(t, answer)
		if _, err := Greet(dial(port), "ab", false, 500*time.Millisecond); !errors.Is(err, ErrNotTrestle) {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(got(), `"trestle_token"`) {
			t.Fatalf("%s was sent the token: %q", name, got())
		}
	}
}
