package search

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPrefixedNeverMissesALine: on real Go code nobody here wrote
// (GOROOT/src/net and go), the whole-file test of a regexp that starts
// with a literal passes every file one of whose lines matches, and, since
// it looks at each literal's own line, no file where none does (but for a
// pattern with an assertion before its literal, which the literal's line
// alone cannot decide: such a file may pass, and is then split).
func TestPrefixedNeverMissesALine(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go env GOROOT: ", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	for _, pattern := range []string{
		`err != nil \{\s*return`, `func \(\w+ \*\w+\) Close\(\) error`, `return nil, \w+`,
		`if err :?= .*; err != nil`, `t\.Fatal\w*\(`, `x\b`, `^func`,
	} {
		exact := !strings.HasPrefix(pattern, "^")
		re := regexp.MustCompile(pattern)
		pre := newPrefixed(re)
		if pre == nil {
			t.Fatalf("%s: no prefixed test", pattern)
		}
		files, matched := 0, 0
		for _, dir := range []string{"net", "go"} {
			filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
					return err
				}
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				files++
				any := false
				for line := range bytes.Lines(data) {
					if re.Match(bytes.TrimRight(bytes.TrimSuffix(line, []byte("\n")), "\r")) {
						any = true
						break
					}
				}
				if any {
					matched++
				}
				if got := pre.match(data); got != any && (exact || any) {
					t.Errorf("%s: %s: the prefixed test says %v, the lines %v", pattern, path, got, any)
				}
				return nil
			})
		}
		if files < 500 || matched == 0 && pattern != `err != nil \{\s*return` {
			t.Fatalf("%s: %d files, %d with a match: the tree is not what the test expects", pattern, files, matched)
		}
	}
	if newPrefixed(regexp.MustCompile(`(?i)err`)) != nil || newPrefixed(regexp.MustCompile(`plain`)) != nil {
		t.Error("a prefixed test for a pattern without a literal start, or one that is only a literal")
	}
}
