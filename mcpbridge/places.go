package mcpbridge

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"time"

	"trestle/app/workbench"
)

// The places a window's clients hold: at most MaxClients, attached or
// connecting.

// Clients lists the attached clients that have initialized, ordered by
// session id.
func (l *Listener) Clients() []workbench.Client {
	clients, _ := l.places()
	return clients
}

// places lists the initialized clients and counts the places held by
// connections that have not initialized yet.
func (l *Listener) places() (clients []workbench.Client, connecting int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	clients = make([]workbench.Client, 0, len(l.sessions))
	for _, s := range l.sessions {
		if s.Initialized() {
			clients = append(clients, s.client())
		} else {
			connecting++
		}
	}
	sort.Slice(clients, func(i, j int) bool { return sessionNum(clients[i].Session) < sessionNum(clients[j].Session) })
	return clients, connecting
}

func sessionNum(id string) int {
	n, _ := strconv.Atoi(id[len("conn-"):])
	return n
}

// admitWait is how long a connection waits for a free place when the window
// is full: connections that only check the token (the registry's probe
// before an attach) leave within milliseconds, and a real client should not
// be refused because one was still closing.
const admitWait = 300 * time.Millisecond

// admit makes a session for a new connection, waiting up to admitWait for
// a place, or reports that MaxClients are attached.
func (l *Listener) admit() (*session, bool) {
	deadline := time.Now().Add(admitWait)
	for {
		if sess, ok := l.tryAdmit(); ok || time.Now().After(deadline) {
			return sess, ok
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (l *Listener) tryAdmit() (*session, bool) {
	l.mu.Lock()
	if len(l.sessions) >= MaxClients {
		l.mu.Unlock()
		return nil, false
	}
	l.nextID++
	sess := newSession(fmt.Sprintf("conn-%d", l.nextID), l.changed)
	l.sessions[sess.id] = sess
	l.mu.Unlock()
	l.changed() // one more connecting
	return sess, true
}

func (l *Listener) leave(sess *session) {
	l.mu.Lock()
	delete(l.sessions, sess.id)
	l.mu.Unlock()
	l.changed()
}

// track records c so Close can end it, from accept on.
func (l *Listener) track(c net.Conn, add bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if add {
		l.conns[c] = struct{}{}
	} else {
		delete(l.conns, c)
	}
}

func (l *Listener) changed() {
	if l.OnClients != nil {
		l.OnClients(l.places())
	}
}
