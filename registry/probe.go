package registry

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

// ProbeTimeout is how long a probe waits for a refusal after sending the
// token: a wrong-token refusal comes back over loopback in well under a
// millisecond, so silence this long means the window accepted the token.
const ProbeTimeout = 150 * time.Millisecond

// Answers reports whether the window of e is listening on its port: it
// connects and sends e's token line, as `--mcp-attach` does. A Trestle window
// that knows the token says nothing until the client speaks; anything else
// answers at once (another window refuses the token) or closes, or nothing
// listens there at all (a pid reused by another program). The token line's
// format is the listener's (mcpbridge.TokenLine); registry may not import it.
func Answers(e Entry, timeout time.Duration) bool {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(e.Port)), timeout)
	if err != nil {
		return false
	}
	defer c.Close()
	line, _ := json.Marshal(struct {
		Token string `json:"trestle_token"`
	}{e.Token})
	c.SetDeadline(time.Now().Add(timeout))
	if _, err := c.Write(append(line, '\n')); err != nil {
		return false
	}
	_, err = c.Read(make([]byte, 1))
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() // silence: it accepted the token
}

// ReapUnanswered is Reap, and also removes the entries of live pids whose
// port does not answer (pid reuse, or a window that lost its listener).
// The probes run in parallel, so it takes at most about ProbeTimeout.
func (r *Registry) ReapUnanswered(timeout time.Duration) ([]Entry, error) {
	entries, err := r.Reap()
	if err != nil {
		return nil, err
	}
	answers := make([]bool, len(entries))
	var wg sync.WaitGroup
	for i, e := range entries {
		wg.Go(func() { answers[i] = e.PID == os.Getpid() || Answers(e, timeout) })
	}
	wg.Wait()
	live := entries[:0:0]
	for i, e := range entries {
		if answers[i] {
			live = append(live, e)
		} else {
			r.Remove(e.PID)
		}
	}
	return live, nil
}
