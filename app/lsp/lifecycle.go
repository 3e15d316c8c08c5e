package lsp

// The life of the client's gopls: started on the first request, waited
// for by requests while it starts, restarted with backoff when it exits,
// given up on (state failed) after quick failures in a row.

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// session returns the ready gopls, starting one if none runs, waiting for
// it (or for a restart under way) within ctx.
func (c *Client) session(ctx context.Context) (*session, error) {
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return nil, ErrClosed
		}
		s := c.sess
		if s == nil {
			if c.status.State == StateRestarting {
				changed := c.changed
				c.mu.Unlock()
				select {
				case <-changed:
					continue
				case <-ctx.Done():
					return nil, fmt.Errorf("the Go language server is restarting: %w", ctx.Err())
				}
			}
			if wait := time.Until(c.retryAt); wait > 0 {
				detail := c.status.Detail
				c.mu.Unlock()
				return nil, fmt.Errorf("the Go language server is not running (%s); it is tried again in %s", detail, wait.Round(time.Second))
			}
			s = c.startLocked()
		}
		c.mu.Unlock()
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, fmt.Errorf("the Go language server is still starting (loading the module): %w", ctx.Err())
		}
		if s.err != nil {
			return nil, s.err
		}
		if !s.dead() {
			return s, nil
		}
		select { // died since: wait until the client has let it go
		case <-s.gone:
		case <-ctx.Done():
			return nil, fmt.Errorf("the Go language server is restarting: %w", ctx.Err())
		}
	}
}

// swapLocked replaces the current session and wakes those waiting for one.
func (c *Client) swapLocked(s *session) {
	c.sess = s
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Client) startLocked() *session {
	s := newSession(c)
	c.swapLocked(s)
	if c.status.State != StateRestarting {
		c.setStatusLocked(StateStarting, "")
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		s.run()
	}()
	return s
}

// ended is called once when s's process has exited (or never started).
func (c *Client) ended(s *session, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(s.gone)
	if c.sess == s {
		c.swapLocked(nil)
	}
	if c.closed {
		return
	}
	if time.Since(s.started) > healthyAfter && s.wasReady {
		c.failures = 0
	}
	c.failures++
	c.status.Restarts++
	detail := "gopls stopped"
	if err != nil {
		detail = err.Error()
	}
	c.cfg.Logger.Printf("gopls: %s", detail)
	if errors.Is(err, ErrNotInstalled) {
		c.retryAt = time.Now().Add(notInstalledRetry)
		c.status.Restarts--
		c.setStatusLockedMissing(detail)
		return
	}
	if c.failures >= giveUpAfter {
		c.retryAt = time.Now().Add(maxBackoff)
		c.setStatusLocked(StateFailed, fmt.Sprintf("%s (%d failures in a row)", detail, c.failures))
		return
	}
	backoff := min(firstBackoff<<(c.failures-1), maxBackoff)
	c.retryAt = time.Now().Add(backoff)
	c.setStatusLocked(StateRestarting, detail)
	c.restartTimer = time.AfterFunc(backoff, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !c.closed && c.sess == nil {
			c.startLocked()
		}
	})
}

// ready is called when s has answered initialize.
func (c *Client) ready(s *session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess == s && !c.closed {
		c.lastEvent = time.Now()
		c.setStatusLocked(StateReady, "")
	}
}
