package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkRelayEcho is the transport under the bridge rows without
// Trestle in it: the same tools/call line written to the stdin of a
// minimal stdio↔TCP relay process (testdata/relay, which copies bytes
// both ways as `trestle --mcp-attach` does once attached), which sends it
// to an echo process over loopback TCP; the echo comes back the same way.
// Three processes and four cross-process hops, as client → bridge →
// window → bridge → client; p50-µs and p99-µs as the bridge rows.
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
	relay := exec.Command(bin, strings.TrimSpace(addr))
	relay.Stderr = os.Stderr
	in, err := relay.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	rout, err := relay.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := relay.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(); relay.Process.Kill(); relay.Wait() })
	r := bufio.NewReader(rout)
	line := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"trestle_files","arguments":{"under":"pkg"}}}` + "\n")
	var lat latencies
	for b.Loop() {
		start := time.Now()
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := r.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	lat.report(b)
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
