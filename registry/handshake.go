package registry

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
	"unicode"
)

// The handshake on a window's socket, in one place: the listener
// (mcpbridge) answers it, the probe and the --mcp-attach bridge run it with
// Greet. It lives here because registry may import nothing of ours and the
// probe needs it. The window proves it knows the token before the client
// sends it, so neither the token nor an agent's messages ever go to a
// process that merely holds the registered port:
//
//	client: {"trestle_hello":"<nonce, 64 hex>"}         (with "trestle_probe":true, the probe stops here)
//	window: {"trestle_proof":"<HMAC-SHA256(token, nonce), hex>"}
//	client: {"trestle_token":"<64 hex>"}
//	window: {"trestle_welcome":"ready"}                 then MCP lines both ways
//	window: {"trestle_welcome":"full","attached":8}     the client's first request is refused
//	window: {"jsonrpc":"2.0","id":null,"error":{...}}   wrong or missing token; closed
//
// A client may also send the token line first, skipping the proof.
//
// A focus request is the same handshake with a purpose on the token line:
// another Trestle process asks the window to come to the front (the person
// opened its project there). It never takes a place among the attached
// clients, and a wrong token gets the attach's refusal:
//
//	client: {"trestle_token":"<64 hex>","trestle_focus":true}
//	window: {"trestle_welcome":"focused"}                then closed
//	window: {"jsonrpc":"2.0","id":null,"error":{...}}   it could not come to the front; closed
//
// A window older than the focus request reads that token line as an
// attach and answers ready: the client then knows it was not raised.

// Hello is the line a client opens with: a fresh nonce for the window to
// prove it knows the token.
type Hello struct {
	Nonce string `json:"trestle_hello"`
	// Probe asks only whether the window is there: it proves itself and
	// closes, and the connection takes no place among the attached clients.
	Probe bool `json:"trestle_probe,omitempty"`
}

// Proof is the window's answer to a Hello.
type Proof struct {
	Proof string `json:"trestle_proof"`
}

// TokenLine carries the token, after the window's proof.
type TokenLine struct {
	Token string `json:"trestle_token"`
	// Focus asks the window to come to the front instead of attaching.
	Focus bool `json:"trestle_focus,omitempty"`
}

// ProveWindow is the proof that the window holding token gives for nonce.
func ProveWindow(token, nonce string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("trestle window proof\x00" + nonce))
	return hex.EncodeToString(m.Sum(nil))
}

// Welcome states: Ready means the connection holds a place and MCP may
// start; Full means every place is taken, and the window answers the
// client's first request with a refusal carrying that request's id.
// Focused answers a focus request: the window came to the front.
const (
	WelcomeReady   = "ready"
	WelcomeFull    = "full"
	WelcomeFocused = "focused"
)

// Welcome is the window's answer to a Hello that carries its token. Silence
// is never an answer: a process that is not the window says nothing.
type Welcome struct {
	State    string `json:"trestle_welcome"`
	Attached int    `json:"attached,omitempty"` // with WelcomeFull: how many clients hold the places
}

// MaxHandshakeLine bounds a handshake line (each is under 200 bytes): the
// listener reads no more of a connection before its token is right.
const MaxHandshakeLine = 4 << 10

// Line is v as one JSON line, newline included.
func Line(v any) []byte {
	b, _ := json.Marshal(v)
	return append(b, '\n')
}

// WelcomeLine is w as one line, newline included.
func WelcomeLine(w Welcome) []byte { return Line(w) }

// ParseFirst decodes a client's first line: a Hello with a nonce, or a
// TokenLine with a token; ok is false for anything else.
func ParseFirst(line []byte) (h Hello, t TokenLine, ok bool) {
	if len(line) > MaxHandshakeLine {
		return h, t, false
	}
	if json.Unmarshal(line, &h) == nil && h.Nonce != "" && len(h.Nonce) <= 128 {
		return h, t, true
	}
	if json.Unmarshal(line, &t) == nil && t.Token != "" {
		return Hello{}, t, true
	}
	return Hello{}, TokenLine{}, false
}

// ParseToken decodes a token line; ok is false unless it carries a token.
func ParseToken(line []byte) (t TokenLine, ok bool) {
	if len(line) > MaxHandshakeLine || json.Unmarshal(line, &t) != nil || t.Token == "" {
		return TokenLine{}, false
	}
	return t, true
}

// CodeBusy is the JSON-RPC error code of a window's refusal because too
// many connections are in its handshake (a flood): a client may try again
// shortly. Any other refusal is final. It is one of the server-defined
// codes (-32000 to -32099) that MCP gives no meaning: MCP's -32002 is
// "resource not found", and an MCP client that reads a flood's eviction
// (flood.go in mcpbridge) must not take it for that.
const CodeBusy = -32012

// RefusedError is a window's refusal of the handshake: the code is
// CodeBusy or another JSON-RPC code, the message the window's, for a person
// (control characters removed).
type RefusedError struct {
	Code    int
	Message string
}

func (e *RefusedError) Error() string { return e.Message }

// ErrNotTrestle means the process listening on the port did not answer as a
// Trestle window does: it was silent, closed, or said something else.
var ErrNotTrestle = errors.New("the process on that port did not answer as a Trestle window")

// Greet runs the client's side of the handshake on c within timeout: it
// sends a Hello, checks the window's proof and, unless probe is set, sends
// the token and reads the Welcome. It reads byte by byte, so nothing past
// the window's last handshake line is consumed. It returns the Welcome
// (State ready for a probe that got a good proof), a *RefusedError, or an
// error wrapping ErrNotTrestle; the token is never sent without a good
// proof. It leaves c without deadlines.
func Greet(c net.Conn, token string, probe bool, timeout time.Duration) (Welcome, error) {
	return greet(c, TokenLine{Token: token}, probe, timeout)
}

// GreetFocus runs the handshake of a focus request on c within timeout:
// after the window's proof it sends the token line asking it to come to
// the front. It returns nil once the window says it did, a *RefusedError
// when it could not (or refused the token), or an error wrapping
// ErrNotTrestle, as Greet does. A window too old to know the request
// answers ready: that is an error too, and closing c ends that attach.
func GreetFocus(c net.Conn, token string, timeout time.Duration) error {
	w, err := greet(c, TokenLine{Token: token, Focus: true}, false, timeout)
	switch {
	case err != nil:
		return err
	case w.State != WelcomeFocused:
		return errors.New("the window answered as an attach (a Trestle from before focus requests): it cannot be asked to come to the front")
	}
	return nil
}

// greet is Greet with the token line to send, tl.
func greet(c net.Conn, tl TokenLine, probe bool, timeout time.Duration) (Welcome, error) {
	token := tl.Token
	c.SetDeadline(time.Now().Add(timeout))
	defer c.SetDeadline(time.Time{})
	nonce := make([]byte, 32)
	if _, err := rand.Read(nonce); err != nil {
		return Welcome{}, fmt.Errorf("make a handshake nonce: %w", err)
	}
	hello := Hello{Nonce: hex.EncodeToString(nonce), Probe: probe}
	line, err := exchange(c, Line(hello), timeout)
	if err != nil {
		return Welcome{}, err
	}
	var p Proof
	if json.Unmarshal(line, &p) != nil || p.Proof == "" {
		return Welcome{}, notWindow(line)
	}
	if !hmac.Equal([]byte(p.Proof), []byte(ProveWindow(token, hello.Nonce))) {
		return Welcome{}, fmt.Errorf("%w: its proof does not match the registered token (another window, or another program on that port)", ErrNotTrestle)
	}
	if probe {
		return Welcome{State: WelcomeReady}, nil
	}
	if line, err = exchange(c, Line(tl), timeout); err != nil {
		return Welcome{}, err
	}
	var w Welcome
	if json.Unmarshal(line, &w) == nil && (w.State == WelcomeReady || w.State == WelcomeFull || (tl.Focus && w.State == WelcomeFocused)) {
		return w, nil
	}
	return Welcome{}, notWindow(line)
}

// exchange writes out and reads one line of answer.
func exchange(c net.Conn, out []byte, timeout time.Duration) ([]byte, error) {
	if _, err := c.Write(out); err != nil {
		return nil, fmt.Errorf("%w (sending the handshake: %v)", ErrNotTrestle, err)
	}
	line, err := readLine(c)
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return nil, fmt.Errorf("%w: it said nothing for %v", ErrNotTrestle, timeout)
		}
		return nil, fmt.Errorf("%w: %v", ErrNotTrestle, err)
	}
	return line, nil
}

// notWindow explains an answer that is not the expected handshake line: a
// window's refusal, or something that is not a window at all.
func notWindow(line []byte) error {
	var refusal struct {
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(line, &refusal) == nil && refusal.Error != nil && refusal.Error.Message != "" {
		msg := strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return -1
			}
			return r
		}, refusal.Error.Message)
		return &RefusedError{Code: refusal.Error.Code, Message: msg}
	}
	return fmt.Errorf("%w: it answered %.80q", ErrNotTrestle, line)
}

// readLine reads one line from c a byte at a time, without its newline.
func readLine(c net.Conn) ([]byte, error) {
	var line []byte
	b := make([]byte, 1)
	for len(line) <= MaxHandshakeLine {
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
