package mcpbridge

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAClientThatStopsReadingIsDropped: a client that never reads fills
// its socket; the others are unaffected and it is dropped after the write
// bound.
func TestAClientThatStopsReadingIsDropped(t *testing.T) {
	l := startListener(t)
	l.writeTimeout = 500 * time.Millisecond
	root := l.root
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("x", 256<<10)), 0o644); err != nil {
		t.Fatal(err)
	}
	stuck := dialAuth(t, l)
	stuck.initialize("stuck")
	for i := range 128 { // 64 MiB of replies (text and structured content) it never reads
		stuck.sendf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"trestle_read","arguments":{"path":"big.txt"}}}`, i+10)
	}
	other := dialAuth(t, l)
	other.initialize("other")
	for i := range 20 {
		start := time.Now()
		other.sendf(`{"jsonrpc":"2.0","id":"p%d","method":"ping"}`, i)
		if m := other.recv(); m["id"] != fmt.Sprintf("p%d", i) || time.Since(start) > time.Second {
			t.Fatalf("the other client waited %v for %v", time.Since(start), m)
		}
	}
	waitFor(t, 10*time.Second, "the stuck client is dropped", func() bool { return len(l.Clients()) == 1 })
	if got := l.Clients()[0].Name; got != "other" {
		t.Fatalf("kept %q", got)
	}
}
