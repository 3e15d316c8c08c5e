package registry

import (
	"fmt"
	"net"
	"strconv"
	"time"
)

// FocusTimeout bounds a focus request: the window answers once its main
// goroutine has raised it, which it waits for at most two seconds.
const FocusTimeout = 3 * time.Second

// Focus asks the window of e to come to the front and take the keyboard
// focus (the person opened its project from another Trestle process). It
// runs the handshake with e's token after the window's proof (GreetFocus),
// so only a process that can read e asks, and only the window that holds
// the token hears it. It returns nil once the window says it came to the
// front; otherwise why not, naming the window.
func Focus(e Entry, timeout time.Duration) error {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(e.Port)), timeout)
	if err != nil {
		return fmt.Errorf("ask Trestle window %d to come to the front: %w", e.PID, err)
	}
	defer c.Close()
	if err := GreetFocus(c, e.Token, timeout); err != nil {
		return fmt.Errorf("ask Trestle window %d to come to the front: %w", e.PID, err)
	}
	return nil
}
