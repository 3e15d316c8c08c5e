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

// TestKeyedNeverMissesALine: on real Go code nobody here wrote
// (GOROOT/src/net and go), the whole-file test of a regexp that holds a
// literal passes every file one of whose lines matches, and, since it
// looks at each literal's own line, no file where none does (but for a
// pattern that starts with its literal and has an assertion before it,
// which the rest of the line alone cannot decide: such a file may pass,
// and is then split).
func TestKeyedNeverMissesALine(t *testing.T) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go env GOROOT: ", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	for _, pattern := range []string{
		`err != nil \{\s*return`, `func \(\w+ \*\w+\) Close\(\) error`, `return nil, \w+`,
		`if err :?= .*; err != nil`, `t\.Fatal\w*\(`, `x\b`, `^func`, `\bx\w* := range`, `\w+\.Close\(\)`,
	} {
		re := regexp.MustCompile(pattern)
		pre := newKeyed(re)
		if pre == nil {
			t.Fatalf("%s: no keyed test", pattern)
		}
		exact := pre.line != nil // on the literal's whole line; anchored at it, an assertion before it is not seen
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
					t.Errorf("%s: %s: the keyed test says %v, the lines %v", pattern, path, got, any)
				}
				return nil
			})
		}
		if files < 500 || matched == 0 && pattern != `err != nil \{\s*return` {
			t.Fatalf("%s: %d files, %d with a match: the tree is not what the test expects", pattern, files, matched)
		}
	}
	if newKeyed(regexp.MustCompile(`(?i)err`)) != nil || newKeyed(regexp.MustCompile(`plain`)) != nil ||
		newKeyed(regexp.MustCompile(`\w+|x`)) != nil {
		t.Error("a keyed test for a pattern without a case-sensitive literal in sequence, or one that is only a literal")
	}
	// The rarest literal keys the test: the one a method's name is in, not
	// "func (", which starts nearly every method.
	for pattern, want := range map[string]string{
		`func \(\w+ \*\w+\) Close\(\) error`: ") Close() error",
		`err != nil \{\s*return`:             "err != nil {",
	} {
		if got := string(newKeyed(regexp.MustCompile(pattern)).lit.pat); got != want {
			t.Errorf("%s: keyed by %q, want %q", pattern, got, want)
		}
	}
}
