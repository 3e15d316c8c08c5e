package main

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/registry"
)

// The bridge rows against what copying bytes costs: testdata/relay is a
// minimal stdio↔TCP relay, which copies both ways as `trestle --mcp-attach`
// does once attached and does nothing else.

// rawFilesLine is the tools/call line of the bridge rows.
const rawFilesLine = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trestle_files","arguments":{"under":"pkg"}}}`

// BenchmarkRelayEcho is the transport under the bridge rows without
// Trestle in it: the tools/call line written to the relay's stdin, which
// sends it to an echo process over loopback TCP; the echo comes back the
// same way. Three processes and four cross-process hops, as client →
// bridge → window → bridge → client; p50-µs and p99-µs as the bridge rows.
func BenchmarkRelayEcho(b *testing.B) {
	bin := relayBin(b)
	echo := exec.Command(bin, "-echo")
	out, err := echo.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := echo.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { echo.Process.Kill(); echo.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatalf("relay -echo: no address: %v", err)
	}
	relay := startRelay(b, bin, strings.TrimSpace(addr))
	var lat latencies
	for b.Loop() {
		lat = append(lat, roundTrip(b, relay, false))
	}
	lat.report(b)
}

// BenchmarkBridgeVsRelay sends BenchmarkBridgeRawLine's line to one window
// through `trestle --mcp-attach` and through the relay (which has done the
// window's handshake as the bridge does), alternating which goes first:
// what the bridge costs beyond copying bytes. bridge-p50-µs and
// relay-p50-µs are the medians of each.
func BenchmarkBridgeVsRelay(b *testing.B) {
	w := startWindow(b, testProject(b))
	bridge := startRawBridge(b, w.env, "--mcp-attach")
	relay := startRelay(b, relayBin(b), fmt.Sprintf("127.0.0.1:%d", w.entry.Port))
	handshake(b, relay, w.entry.Token)
	for _, c := range []*rawBridge{bridge, relay} {
		c.send(b, initLine)
		if m := c.recv(b); m["result"] == nil {
			b.Fatalf("initialize: %v", m)
		}
		c.send(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	var bl, rl latencies
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			bl = append(bl, roundTrip(b, bridge, true))
			rl = append(rl, roundTrip(b, relay, true))
		} else {
			rl = append(rl, roundTrip(b, relay, true))
			bl = append(bl, roundTrip(b, bridge, true))
		}
	}
	slices.Sort(bl)
	slices.Sort(rl)
	b.ReportMetric(float64(bl[len(bl)/2].Microseconds()), "bridge-p50-µs")
	b.ReportMetric(float64(rl[len(rl)/2].Microseconds()), "relay-p50-µs")
}

// roundTrip writes rawFilesLine to c and reads one line back; with result
// set, that line must be a tool result.
func roundTrip(b *testing.B, c *rawBridge, result bool) time.Duration {
	start := time.Now()
	c.send(b, rawFilesLine)
	if !result {
		if _, err := c.stdout.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	m := c.recv(b)
	took := time.Since(start)
	if m["result"] == nil {
		b.Fatalf("reply %v", m)
	}
	return took
}

// handshake greets the window through the relay as the bridge does
// (registry.Greet): hello, the window's proof, the token, its welcome.
func handshake(b *testing.B, relay *rawBridge, token string) {
	b.Helper()
	nonce := make([]byte, 32)
	rand.Read(nonce)
	for _, line := range [][]byte{registry.Line(registry.Hello{Nonce: hex.EncodeToString(nonce)}), registry.Line(registry.TokenLine{Token: token})} {
		relay.send(b, strings.TrimSpace(string(line)))
		answer, err := relay.stdout.ReadBytes('\n')
		if err != nil {
			b.Fatalf("handshake through the relay: %v (stderr: %s)", err, relay.stderr.String())
		}
		var w registry.Welcome
		if strings.Contains(string(line), "trestle_token") && (json.Unmarshal(answer, &w) != nil || w.State != registry.WelcomeReady) {
			b.Fatalf("the window did not welcome the relay: %s", answer)
		}
	}
}

// startRelay runs testdata/relay to addr with plain pipes.
func startRelay(b *testing.B, bin, addr string) *rawBridge {
	b.Helper()
	r := &rawBridge{stderr: &syncBuffer{}, done: make(chan error, 1)}
	r.cmd = exec.Command(bin, addr)
	r.cmd.Stderr = r.stderr
	var err error
	if r.stdin, err = r.cmd.StdinPipe(); err != nil {
		b.Fatal(err)
	}
	out, err := r.cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	r.stdout = bufio.NewReader(out)
	if err := r.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	go func() { r.done <- r.cmd.Wait() }()
	b.Cleanup(func() { r.stdin.Close(); r.cmd.Process.Kill(); <-r.done })
	return r
}

// relayBin builds testdata/relay into a folder of b's.
func relayBin(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "relay")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/relay").CombinedOutput(); err != nil {
		b.Fatalf("build testdata/relay: %v\n%s", err, out)
	}
	return bin
}
