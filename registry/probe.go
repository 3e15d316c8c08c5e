package registry

import (
	"net"
	"os"
	"strconv"
	"sync"
	"time"
)

// ProbeTimeout bounds one probe of a window's port: loopback answers in
// microseconds, so this only matters for a window that is wedged.
const ProbeTimeout = 500 * time.Millisecond

// Answers reports whether something accepts connections on the entry's
// loopback port within timeout. A pid that is alive but was reused by
// another program has no listener there.
func Answers(e Entry, timeout time.Duration) bool {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(e.Port)), timeout)
	if err != nil {
		return false
	}
	c.Close()
	return true
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
