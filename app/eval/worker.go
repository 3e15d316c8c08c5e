package eval

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/unrestricted"

	"trestle/app/eval/evalworker"
)

// bundledStd names the standard library of the fallback worker: the symbol
// tables that ship with yaegi.
const bundledStd = "yaegi's bundled go1.22 tables"

// RunWorker hosts the fallback evaluator: yaegi with its bundled standard
// library tables and every other package interpreted from source. The
// trestle binary runs it in its hidden --eval-worker mode while a
// selection's native worker is not built (or its build failed); see
// evalworker.Run for the protocol and the process rules. When opts.GoPath
// is empty RunWorker builds a GOPATH tree in a temporary folder and removes
// it when it returns.
func RunWorker(ctx context.Context, in io.Reader, out io.Writer, opts WorkerOptions) error {
	dir, cleanup, err := workerGoPath(ctx, opts)
	if err != nil {
		return err
	}
	defer cleanup()
	opts.GoPath = dir
	// The unrestricted symbols (os.Exit, os/exec) follow stdlib, to replace it.
	return evalworker.Run(ctx, in, out, opts, bundledStd, stdlib.Symbols, unrestricted.Symbols)
}

// workerGoPath returns opts.GoPath, or builds a temporary tree.
func workerGoPath(ctx context.Context, opts WorkerOptions) (string, func(), error) {
	if opts.GoPath != "" || opts.Root == "" {
		return opts.GoPath, func() {}, nil
	}
	modCache := opts.ModCache
	if modCache == "" {
		var err error
		if modCache, err = goModCache(ctx); err != nil {
			return "", nil, fmt.Errorf("eval worker: %w", err)
		}
	}
	dir, err := os.MkdirTemp("", "trestle-gopath-")
	if err != nil {
		return "", nil, fmt.Errorf("eval worker: %w", err)
	}
	cleanup := func() { os.RemoveAll(dir) }
	if _, err := BuildGoPath(ctx, dir, opts.Root, modCache); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("eval worker: %w", err)
	}
	return dir, cleanup, nil
}
