package supervise

import "sync"

// Switch carries the person's wish for the listener, on or off, from the
// window (its Agents menu) to the Listener that follows it (Config.Switch).
// It is made before both, so that the window and the listener, which know
// each other, are each built once with everything they need: nothing is
// bound late. The latest wish wins, and Set never blocks. Safe for
// concurrent use.
type Switch struct {
	mu   sync.Mutex // one Set at a time: its drain and send stay together
	wish chan bool  // the latest wish not yet followed; room for one
}

// NewSwitch returns a switch with no wish yet.
func NewSwitch() *Switch { return &Switch{wish: make(chan bool, 1)} }

// Set asks for the listener on or off. A wish the listener has not taken
// yet is replaced: only the latest counts. Any goroutine.
func (s *Switch) Set(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.wish: // superseded
	default:
	}
	s.wish <- on
}
