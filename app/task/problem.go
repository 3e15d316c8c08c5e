package task

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Problem is one "file:line:col: message" from a compiler, vet or a test.
type Problem struct {
	Path    string `json:"path"` // project-relative with forward slashes, or absolute when outside the project
	Line    int    `json:"line"`
	Col     int    `json:"column"` // 0 when the line gave none
	Message string `json:"message"`
}

// problemLine matches "path.ext:line:col: message" and "path.ext:line: message";
// the message may be empty, as a test's t.Errorf("\nhave...") prints it on
// the lines below.
var problemLine = regexp.MustCompile(`^(\S+?\.[A-Za-z0-9]+):(\d+)(?::(\d+))?:(?:\s+(.*))?$`)

// ParseProblem reads a problem from one output line of a task run in dir
// (relative to root; "" is root). Paths are taken relative to dir and made
// project-relative; indentation (test logs), a "vet: " prefix and "./" are
// handled; "# package" headers are not problems. It is a pure function.
func ParseProblem(line, root, dir string) (Problem, bool) {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "#") {
		return Problem{}, false
	}
	line = strings.TrimPrefix(line, "vet: ")
	m := problemLine.FindStringSubmatch(line)
	if m == nil {
		return Problem{}, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n < 1 {
		return Problem{}, false
	}
	col, _ := strconv.Atoi(m[3])
	return Problem{Path: projectPath(m[1], root, dir), Line: n, Col: col, Message: m[4]}, true
}

// projectPath makes a path printed by a task in dir relative to root.
func projectPath(p, root, dir string) string {
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, filepath.FromSlash(dir), p)
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(filepath.Clean(p))
	}
	return filepath.ToSlash(rel)
}
