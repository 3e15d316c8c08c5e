package main

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLoadThroughBridges: 8 clients, each through its own real
// `trestle --mcp-attach` bridge, make 1,000 mixed calls (reads, searches,
// file lists, UI tools) against one real window. Every reply must come back
// to the right client with the right id; p50/p99 per tool are logged. With
// -short it makes 100 calls per client.
func TestLoadThroughBridges(t *testing.T) {
	w := startWindow(t, testProject(t))
	calls := 1000
	if testing.Short() {
		calls = 100
	}
	tools := []struct{ name, args string }{
		{"trestle_read", `{"path":"main.go"}`},
		{"trestle_search", `{"pattern":"func"}`},
		{"trestle_files", `{}`},
		{"trestle_workbench", `{}`},
	}
	var mu sync.Mutex
	lat := map[string][]time.Duration{}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	var bridges []*rawBridge
	for c := range 8 {
		b := startRawBridge(t, w.env, "--mcp-attach", w.entry.Dir)
		bridges = append(bridges, b)
		b.send(t, strings.Replace(initLine, `"raw"`, fmt.Sprintf(`"load-%d"`, c), 1))
		b.recv(t)
		b.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		wg.Go(func() {
			for i := range calls {
				tool := tools[(i+c)%len(tools)]
				id := fmt.Sprintf("c%d-%d", c, i)
				start := time.Now()
				if _, err := fmt.Fprintf(b.stdin, `{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", id, tool.name, tool.args); err != nil {
					errs <- err
					return
				}
				line, err := b.stdout.ReadString('\n')
				took := time.Since(start)
				if err != nil || !strings.Contains(line, `"id":"`+id+`"`) || !strings.Contains(line, `"result"`) || strings.Contains(line, `"isError":true`) {
					errs <- fmt.Errorf("client %d call %d (%s): %v %.200s", c, i, tool.name, err, line)
					return
				}
				mu.Lock()
				lat[tool.name] = append(lat[tool.name], took)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for name, l := range lat {
		slices.Sort(l)
		t.Logf("%-18s n=%d p50=%v p99=%v", name, len(l), l[len(l)/2], l[len(l)*99/100])
	}
	for _, b := range bridges { // detach, so the window has room for one more client
		b.stdin.Close()
		<-b.done
	}
	if res, _ := call(t, w.attach(t, "", "after-load"), "trestle_workbench", nil); res.IsError {
		t.Fatalf("the window stopped answering after the load: %s", resultText(res))
	}
}
