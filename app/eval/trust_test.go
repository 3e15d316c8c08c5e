package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestUntrustedProjectRunsNoNativeProjectCode (issue 20): in a project the
// person has not trusted, a project package that needs native code is not
// linked (its init never runs) and the compiled path builds nothing that
// imports a project package; both say why and how to trust. Trusting the
// project lets the same inputs run.
func TestUntrustedProjectRunsNoNativeProjectCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a native worker")
	}
	var trusted atomic.Bool
	root := newDemo(t)
	testfix.WriteFiles(t, root, natFiles)
	m := NewManager(ManagerOptions{
		Root: root, Module: "example.com/demo", WorkerCommand: testWorkerCommand,
		Native: true, CacheDir: filepath.Join(t.TempDir(), "cache"), BuildWait: 10 * time.Minute,
		ProjectTrusted: trusted.Load,
	})
	t.Cleanup(m.Close)
	marker := filepath.Join(root, "nat-init-ran")
	wantValue(t, evalLong(t, m, "1+1"), "2", "int")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := m.Eval(ctx, "", "import \"example.com/demo/nat\"\nnat.Ran", 30*time.Second)
	if err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Fatalf("an untrusted native package was evaluated: %v %+v", err, res)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the untrusted project's native init ran")
	}
	res, err = m.Eval(ctx, "", "import \"example.com/demo/calc\"\nfor i := range 2 { _ = calc.Add(i, 1) }\ncalc.Add(2, 3)", 30*time.Second)
	if err != nil || res.Mode != ModeCompiled || !strings.Contains(res.Err, "not trusted") {
		t.Fatalf("a compiled input imported an untrusted project package: %v %+v", err, res)
	}

	trusted.Store(true)
	wantValue(t, evalLong(t, m, "import \"example.com/demo/nat\"\nnat.Ran"), "true", "bool")
	res = evalLong(t, m, "import \"example.com/demo/calc\"\nfor i := range 2 { _ = calc.Add(i, 1) }\ncalc.Add(2, 3)")
	if res.Mode != ModeCompiled || res.Err != "" || res.Value != "5" {
		t.Fatalf("trusted, the compiled input runs: %+v", res)
	}
}
