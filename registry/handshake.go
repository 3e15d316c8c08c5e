package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"
)

// The handshake on a window's socket, in one place: the listener
// (mcpbridge) reads a Hello and answers a Welcome or a refusal; the probe
// and the --mcp-attach bridge send a Hello with Greet. It lives here
// because registry may import nothing of ours and the probe needs it.
//
//	client: {"trestle_token":"<64 hex>"}
//	window: {"trestle_welcome":"ready"}          then MCP lines both ways
//	window: {"trestle_welcome":"full","attached":8}  the client's first request is refused
//	window: {"jsonrpc":"2.0","id":null,"error":{...}} wrong or missing token; closed

// Hello is the first line a client sends on a window's socket.
type Hello struct {
	Token string `json:"trestle_token"`
	// Probe asks only whether the window is there: it answers and closes,
	// and the connection takes no place among the attached clients.
	Probe bool `json:"trestle_probe,omitempty"`
}

// Welcome states: Ready means the connection holds a place and MCP may
// start; Full means every place is taken, and the window answers the
// client's first request with a refusal carrying that request's id.
const (
	WelcomeReady = "ready"
	WelcomeFull  = "full"
)

// Welcome is the window's answer to a Hello that carries its token. Silence
// is never an answer: a process that is not the window says nothing.
type Welcome struct {
	State    string `json:"trestle_welcome"`
	Attached int    `json:"attached,omitempty"` // with WelcomeFull: how many clients hold the places
}

// maxHandshakeLine bounds a Hello or Welcome line (a Hello is ~90 bytes).
const maxHandshakeLine = 4 << 10

// HelloLine is h as one line, newline included.
func HelloLine(h Hello) []byte {
	b, _ := json.Marshal(h)
	return append(b, '\n')
}

// ParseHello decodes a first line; ok is false unless it is a Hello with
// a non-empty token.
func ParseHello(line []byte) (h Hello, ok bool) {
	if len(line) > maxHandshakeLine || json.Unmarshal(line, &h) != nil || h.Token == "" {
		return Hello{}, false
	}
	return h, true
}

// WelcomeLine is w as one line, newline included.
func WelcomeLine(w Welcome) []byte {
	b, _ := json.Marshal(w)
	return append(b, '\n')
}

// RefusedError is a window's refusal of a Hello (a wrong token, say): the
// message is the window's, for a person.
type RefusedError struct{ Message string }

func (e *RefusedError) Error() string { return e.Message }

// ErrNotTrestle means the process listening on the port did not answer as a
// Trestle window does: it was silent, closed, or said something else.
var ErrNotTrestle = errors.New("the process on that port did not answer as a Trestle window")

// Greet sends h on c and reads the window's answer, within timeout. It
// reads byte by byte, so nothing past the answer's newline is consumed.
// It returns the Welcome, a *RefusedError, or an error wrapping
// ErrNotTrestle. It leaves c without deadlines.
func Greet(c net.Conn, h Hello, timeout time.Duration) (Welcome, error) {
	c.SetDeadline(time.Now().Add(timeout))
	defer c.SetDeadline(time.Time{})
	if _, err := c.Write(HelloLine(h)); err != nil {
		return Welcome{}, fmt.Errorf("%w (sending the token: %v)", ErrNotTrestle, err)
	}
	line, err := readLine(c)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return Welcome{}, fmt.Errorf("%w: it said nothing for %v", ErrNotTrestle, timeout)
		}
		return Welcome{}, fmt.Errorf("%w: %v", ErrNotTrestle, err)
	}
	var w Welcome
	if json.Unmarshal(line, &w) == nil && (w.State == WelcomeReady || w.State == WelcomeFull) {
		return w, nil
	}
	var refusal struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(line, &refusal) == nil && refusal.Error != nil && refusal.Error.Message != "" {
		return Welcome{}, &RefusedError{Message: refusal.Error.Message}
	}
	return Welcome{}, fmt.Errorf("%w: it answered %.80q", ErrNotTrestle, line)
}

// readLine reads one line from c a byte at a time, without its newline.
func readLine(c net.Conn) ([]byte, error) {
	var line []byte
	b := make([]byte, 1)
	for len(line) <= maxHandshakeLine {
		n, err := c.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				return line, nil
			}
			line = append(line, b[0])
			continue
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, errors.New("its first line is too long")
}
