package mcpbridge

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"trestle/registry"
)

// TestFocusRequestRaisesAndTakesNoPlace: a focus request with the real
// listener's token calls the window's OnFocus once and is answered
// focused; more of them than there are places leave every place free, so
// an agent still attaches. A wrong token is refused as an attach's is, and
// calls nothing.
func TestFocusRequestRaisesAndTakesNoPlace(t *testing.T) {
	var calls atomic.Int32
	l := startListenerWith(t, nil, func(l *Listener) {
		l.OnFocus = func() error { calls.Add(1); return nil }
	})
	entry := registry.Entry{PID: 1, Port: l.Port(), Token: l.token}
	for i := range MaxClients + 2 {
		if err := registry.Focus(entry, registry.FocusTimeout); err != nil {
			t.Fatalf("focus %d: %v", i+1, err)
		}
		if n := calls.Load(); n != int32(i+1) {
			t.Fatalf("after %d focus requests OnFocus ran %d times", i+1, n)
		}
	}
	rc := dialAuth(t, l) // would be refused as full had the requests kept places
	rc.initialize("after-focus")
	waitFor(t, 10*time.Second, "one client attached, none connecting", func() bool {
		clients, connecting := l.places()
		return len(clients) == 1 && connecting == 0
	})

	wrong := registry.Entry{PID: 1, Port: l.Port(), Token: strings.Repeat("ab", 32)}
	if err := registry.Focus(wrong, registry.FocusTimeout); !errors.Is(err, registry.ErrNotTrestle) {
		t.Fatalf("focus with a wrong token (no proof for it): %v", err)
	}
	attach := dial(t, l.Addr())
	attach.sendf(`{"trestle_token":%q}`, wrong.Token)
	focus := dial(t, l.Addr())
	focus.sendf(`{"trestle_token":%q,"trestle_focus":true}`, wrong.Token)
	if a, f := attach.recv(), focus.recv(); f["error"] == nil || !reflect.DeepEqual(a["error"], f["error"]) {
		t.Fatalf("a focus request with a wrong token got %v, an attach %v: want the same refusal", f, a)
	}
	focus.expectEOF()
	if n := calls.Load(); n != MaxClients+2 {
		t.Fatalf("a wrong token called OnFocus: %d calls", n)
	}
}

// TestFocusRequestSaysWhyNot: a window that could not come to the front
// (its main goroutine busy), or whose listener has no OnFocus, refuses the
// request with why, and the client hears it as a refusal.
func TestFocusRequestSaysWhyNot(t *testing.T) {
	busy := startListenerWith(t, nil, func(l *Listener) {
		l.OnFocus = func() error { return errors.New("the window did not answer within 2s; try again shortly") }
	})
	var re *registry.RefusedError
	err := registry.Focus(registry.Entry{Port: busy.Port(), Token: busy.token}, registry.FocusTimeout)
	if !errors.As(err, &re) || !strings.Contains(re.Message, "did not come to the front") || !strings.Contains(re.Message, "did not answer within 2s") {
		t.Fatalf("focus of a busy window: %v", err)
	}
	none := startListener(t)
	err = registry.Focus(registry.Entry{Port: none.Port(), Token: none.token}, registry.FocusTimeout)
	if !errors.As(err, &re) || !strings.Contains(re.Message, "cannot be brought to the front") {
		t.Fatalf("focus of a listener without OnFocus: %v", err)
	}
}

// TestFocusRequestsShareOneRaise: requests that arrive while the window is
// raising itself wait for that raise and share its outcome: a burst costs
// the window's main goroutine one call, not one per request.
func TestFocusRequestsShareOneRaise(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	l := startListenerWith(t, nil, func(l *Listener) {
		l.OnFocus = func() error { calls.Add(1); <-release; return nil }
	})
	entry := registry.Entry{Port: l.Port(), Token: l.token}
	const burst = 5
	errs := make([]error, burst)
	var wg sync.WaitGroup
	for i := range burst {
		wg.Go(func() { errs[i] = registry.Focus(entry, registry.FocusTimeout) })
	}
	waitFor(t, 10*time.Second, "all but one request joining the first", func() bool {
		l.focus.mu.Lock()
		defer l.focus.mu.Unlock()
		return l.focus.joined == burst-1
	})
	close(release)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("request %d: %v", i, err)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("a burst of %d requests raised the window %d times, want 1", burst, n)
	}
}
