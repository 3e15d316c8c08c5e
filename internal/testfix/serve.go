package testfix

import (
	"context"
	"net"
	"sync"
	"testing"
)

// Serve runs serve on its own goroutine until the test ends; cleanup
// cancels its context and waits for it to return.
func Serve(tb testing.TB, serve func(context.Context) error) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { serve(ctx); close(served) }()
	tb.Cleanup(func() { cancel(); <-served })
}

// Loopback listens on 127.0.0.1:0 and calls handle on its own goroutine
// for every connection (closing it when handle returns) until the test
// ends; cleanup closes the listener and waits for every handler. It
// returns the port. Tests use it for programs that are not a window: a
// fake window, a silent or foreign listener.
func Loopback(tb testing.TB, handle func(net.Conn)) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	tb.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				handle(c)
			})
		}
	})
	return ln.Addr().(*net.TCPAddr).Port
}
