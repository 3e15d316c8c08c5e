//go:build unix

package workerbuild

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockPoll is how often a build waiting for another process's build tries
// the lock again.
const lockPoll = 200 * time.Millisecond

// lockCache takes the cache folder's build lock, shared with every Trestle
// process (and test) on the machine: two windows, or two test packages,
// would otherwise generate the same standard library tables at once on
// the same two cores. It waits for ctx at most.
func lockCache(ctx context.Context, cache string) (unlock func(), err error) {
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return nil, fmt.Errorf("build the native evaluator: %w", err)
	}
	f, err := os.OpenFile(cache+"/build.lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("build the native evaluator: %w", err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil // closing releases the lock
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("build the native evaluator: lock the cache: %w", err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("build the native evaluator: waiting for another build: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}
