package search

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"trestle/app/ignore"
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

var benchPatterns = []struct {
	name, pattern string
	regexp        bool
}{
	{"literal", "func (t *Transport) RoundTrip", false},
	{"common", "errors.New(", false},
	// \s may not match the newline: no line of GOROOT/src matches.
	{"regexp-space", `err != nil \{\s*return`, true},
	{"regexp", `func \(\w+ \*\w+\) Close\(\) error`, true},
}

// BenchmarkSearchTrestle searches as trestle_search does: with the
// project's one ignore matcher (made once, as the tool keeps it). Before
// timing, it checks that it finds as many lines as ripgrep.
func BenchmarkSearchTrestle(b *testing.B) {
	root := goroot(b)
	ignored := ignore.New(root).Ignored
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			q := Query{Pattern: p.pattern, Regexp: p.regexp, Limit: MaxLimit}
			res, err := Run(context.Background(), root, q, Options{Ignored: ignored})
			if err != nil {
				b.Fatal(err)
			}
			if n, ok := ripgrepLines(b, root, p.pattern, p.regexp); ok && n != len(res.Matches) {
				b.Fatalf("%s: Trestle found %d lines, ripgrep %d", p.pattern, len(res.Matches), n)
			}
			for b.Loop() {
				if _, err := Run(context.Background(), root, q, Options{Ignored: ignored}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// ripgrepLines is how many lines ripgrep finds, when it is installed.
func ripgrepLines(b *testing.B, root, pattern string, re bool) (int, bool) {
	if _, err := exec.LookPath("rg"); err != nil {
		return 0, false
	}
	args := []string{"--count", pattern, "."}
	if !re {
		args = append([]string{"--fixed-strings"}, args...)
	}
	cmd := exec.Command("rg", args...)
	cmd.Dir = root
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); err != nil && (!ok || exit.ExitCode() != 1) {
		b.Fatal(err)
	}
	n := 0
	for line := range strings.Lines(string(out)) {
		c, _ := strconv.Atoi(strings.TrimSpace(line[strings.LastIndexByte(line, ':')+1:]))
		n += c
	}
	return n, true
}

func benchCommand(b *testing.B, name string, args func(pattern string, re bool) []string) {
	root := goroot(b)
	if _, err := exec.LookPath(name); err != nil {
		b.Skipf("%s is not installed", name)
	}
	for _, p := range benchPatterns {
		a := args(p.pattern, p.regexp)
		if a == nil {
			continue
		}
		b.Run(p.name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(name, a...)
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
	benchCommand(b, "rg", func(p string, re bool) []string {
		if re {
			return append(threads, "--line-number", "--column", "--no-heading", p, ".")
		}
		return append(threads, "--fixed-strings", "--line-number", "--column", "--no-heading", p, ".")
	})
}

func BenchmarkSearchGitGrep(b *testing.B) {
	benchCommand(b, "git", func(p string, re bool) []string {
		if re { // git grep's regular expressions are not Go's
			return nil
		}
		return []string{"grep", "--no-index", "--fixed-strings", "--line-number", "--column", p, "--", "."}
	})
}
