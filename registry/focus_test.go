package registry

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestFocusNeedsTheProofAndTheAnswer: a focus request sends the token only
// to a listener that proved it knows it, and counts as done only when the
// window says it came to the front: a window from before focus requests
// answers it as an attach (ready), and that is not success.
func TestFocusNeedsTheProofAndTheAnswer(t *testing.T) {
	port, got := fakeWindow(t, window("ab"))
	err := Focus(Entry{PID: 7, Port: port, Token: "ab"}, ProbeTimeout)
	if err == nil || !strings.Contains(err.Error(), "window 7") || !strings.Contains(err.Error(), "cannot be asked") {
		t.Fatalf("focus of an older window: %v, want an error saying it cannot be asked", err)
	}
	if !strings.Contains(got(), `"trestle_focus":true`) {
		t.Fatalf("the token line did not ask for focus: %q", got())
	}
	port, got = fakeWindow(t, impostor)
	if err := Focus(Entry{PID: 8, Port: port, Token: "ab"}, 500*time.Millisecond); !errors.Is(err, ErrNotTrestle) {
		t.Fatalf("focus of an impostor: %v", err)
	}
	if strings.Contains(got(), `"trestle_token"`) {
		t.Fatalf("the impostor was sent the token: %q", got())
	}
	port, _ = fakeWindow(t, func(line []byte) []byte {
		if h, _, ok := ParseFirst(line); ok && h.Nonce != "" {
			return Line(Proof{Proof: ProveWindow("ab", h.Nonce)})
		}
		return WelcomeLine(Welcome{State: WelcomeFocused})
	})
	if err := Focus(Entry{PID: 9, Port: port, Token: "ab"}, ProbeTimeout); err != nil {
		t.Fatalf("focus of a window that came to the front: %v", err)
	}
}
