package mcpbridge

import (
	"errors"
	"net"
	"sync"

	"trestle/registry"
)

// A focus request (registry/handshake.go) asks the window to come to the
// front: another Trestle process was asked to open this window's project.
// It has given the token, like an attach, but takes no place: the window
// raises itself, answers one line and closes the connection.

// errNoFocus is the refusal of a focus request by a listener that was
// given no way to raise its window.
var errNoFocus = errors.New("this window cannot be brought to the front from another process")

// focusFlight runs one OnFocus at a time: requests that arrive while it
// runs share its outcome instead of queuing more work on the window's main
// goroutine, so a burst of requests costs the window one raise.
type focusFlight struct {
	mu      sync.Mutex
	current *focusCall
	joined  int // requests that shared a running call (tests read it)
}

type focusCall struct {
	done chan struct{}
	err  error
}

// raise calls fn, or waits for the call of it already running and returns
// that call's outcome.
func (f *focusFlight) raise(fn func() error) error {
	f.mu.Lock()
	if fc := f.current; fc != nil {
		f.joined++
		f.mu.Unlock()
		<-fc.done
		return fc.err
	}
	fc := &focusCall{done: make(chan struct{})}
	f.current = fc
	f.mu.Unlock()
	fc.err = fn()
	f.mu.Lock()
	f.current = nil
	f.mu.Unlock()
	close(fc.done)
	return fc.err
}

// answerFocus answers a focus request that gave the right token: the
// window comes to the front (OnFocus) and says so, or the request is
// refused with why; either way the connection is closed.
func (l *Listener) answerFocus(c net.Conn) {
	err := errNoFocus
	if l.OnFocus != nil {
		err = l.focus.raise(l.OnFocus)
	}
	if err != nil {
		l.logger.Printf("mcp: a focus request: %v", err)
		refuse(c, errorLine(nil, codeRefused, "refused: the window did not come to the front: "+err.Error()))
		return
	}
	refuse(c, registry.WelcomeLine(registry.Welcome{State: registry.WelcomeFocused}))
}
