package mcpbridge

import (
	"context"
	"runtime/debug"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// After a burst of tool calls (agents reading and searching in a loop) the
// heap they grew stays mapped: Go's scavenger returns it to the system
// slowly, and a window kept 280 MiB after a load whose live heap was
// 65-82 MB. Once the calls stop, the memory is handed back at once.
const (
	// freeAfterIdle: how long no call must end before memory is freed;
	// long enough that a working agent's pauses between calls do not pay
	// for a collection each.
	freeAfterIdle = 10 * time.Second
	// freeAfterCalls: how many calls make a load worth a collection; a few
	// calls leave little to give back.
	freeAfterCalls = 100
)

// idleFree frees memory to the system once freeAfterIdle passes with no
// call ending, after at least calls calls. Safe for concurrent use.
type idleFree struct {
	after time.Duration
	calls int
	free  func()

	mu    sync.Mutex
	n     int // calls ended since the last free
	timer *time.Timer
}

func newIdleFree() *idleFree {
	return &idleFree{after: freeAfterIdle, calls: freeAfterCalls, free: debug.FreeOSMemory}
}

// ended notes that a call ended.
func (f *idleFree) ended() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	switch {
	case f.n < f.calls:
	case f.timer == nil:
		f.timer = time.AfterFunc(f.after, f.fire)
	default:
		f.timer.Reset(f.after)
	}
}

func (f *idleFree) fire() {
	f.mu.Lock()
	f.n, f.timer = 0, nil
	f.mu.Unlock()
	f.free()
}

// freeing wraps t's handler so that its calls count toward idleFree.
func (s *Server) freeing(t server.ServerTool) server.ServerTool {
	inner := t.Handler
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		defer s.idle.ended()
		return inner(ctx, req)
	}
	return t
}
