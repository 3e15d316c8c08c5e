package testfix

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Marks is a folder outside any project where a hostile project's code
// leaves a file when it runs: a test of "runs nothing" checks it stays
// empty. Safe for concurrent use.
type Marks struct{ dir string }

// NewMarks makes a new empty marks folder, removed when the test ends.
func NewMarks(tb testing.TB) Marks { return Marks{dir: tb.TempDir()} }

// Touch is a shell command that leaves the mark name.
func (m Marks) Touch(name string) string {
	return "touch " + strconv.Quote(filepath.Join(m.dir, name))
}

// Path is where the mark name is left.
func (m Marks) Path(name string) string { return filepath.Join(m.dir, name) }

// Left lists the marks left so far, sorted.
func (m Marks) Left() []string {
	entries, _ := os.ReadDir(m.dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestCode is a Go test file of package pkg whose init function, TestMain
// and test each leave a mark ("init", "testmain", "test"): the project's
// own code that `go test` runs and `go build` and `go vet` do not.
func (m Marks) TestCode(pkg string) string {
	mark := func(name string) string { return strconv.Quote(m.Path(name)) }
	return "package " + pkg + "\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\n" +
		"func init() { os.WriteFile(" + mark("init") + ", nil, 0o644) }\n\n" +
		"func TestMain(m *testing.M) {\n\tos.WriteFile(" + mark("testmain") + ", nil, 0o644)\n\tos.Exit(m.Run())\n}\n\n" +
		"func TestRuns(t *testing.T) { os.WriteFile(" + mark("test") + ", nil, 0o644) }\n"
}
