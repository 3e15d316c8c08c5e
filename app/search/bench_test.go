package search

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Search over Go's own source tree, against ripgrep and git grep in the
// same run (docs/performance.md). The external tools are skipped when
// they are not installed (make bench installs ripgrep).

func goroot(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("go env GOROOT: ", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

var benchPatterns = []struct{ name, pattern string }{
	{"literal", "func (t *Transport) RoundTrip"},
	{"common", "errors.New("},
}

func BenchmarkSearchTrestle(b *testing.B) {
	root := goroot(b)
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), root, Query{Pattern: p.pattern, Limit: MaxLimit}, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchCommand(b *testing.B, name string, args func(pattern string) []string) {
	root := goroot(b)
	if _, err := exec.LookPath(name); err != nil {
		b.Skipf("%s is not installed", name)
	}
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(name, args(p.pattern)...)
				cmd.Dir = root
				if err := cmd.Run(); err != nil {
					if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func BenchmarkSearchRipgrep(b *testing.B) {
	threads := []string{"-j", itoa(runtime.GOMAXPROCS(0))}
	benchCommand(b, "rg", func(p string) []string {
		return append(threads, "--fixed-strings", "--line-number", "--column", "--no-heading", p, ".")
	})
}

func BenchmarkSearchGitGrep(b *testing.B) {
	benchCommand(b, "git", func(p string) []string {
		return []string{"grep", "--no-index", "--fixed-strings", "--line-number", "--column", p, "--", "."}
	})
}
