package registry

import (
	"errors"
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

// ProbeTimeout is how long a probe waits for the window's answer: over
// loopback it comes back in well under a millisecond, so a window that has
// not answered in this long is not a live Trestle window (a loaded machine
// is allowed for).
const ProbeTimeout = 2 * time.Second

// Answers reports whether the window of e is listening on its port: it
// connects, sends a probe Hello and expects the proof that the listener
// knows e's token; the token itself is not sent. The window answers at
// once; silence, a close, a wrong proof (another window, or a program
// that speaks the handshake without the token) or nothing listening at all
// (a pid reused by another program) is not the window. A window too busy
// with a flood of connections to take the probe is kept: the bridge checks
// the proof before it sends anything of the agent's.
func Answers(e Entry, timeout time.Duration) bool {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(e.Port)), timeout)
	if err != nil {
		return false
	}
	defer c.Close()
	_, err = Greet(c, e.Token, true, timeout)
	var re *RefusedError
	return err == nil || (errors.As(err, &re) && re.Code == CodeBusy) // busy with a flood: not proof, but not a reason to reap

}

// ReapUnanswered is Reap, and also removes the entries of live pids whose
// port does not answer (pid reuse, or a window that lost its listener).
// The probes run in parallel: a live window answers within milliseconds,
// and the whole takes at most about timeout.
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
