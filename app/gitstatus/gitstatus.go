package gitstatus

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// Timeout bounds one git status: a huge repository must not hold up a tool
// call; the answer then says git was too slow.
const Timeout = 2 * time.Second

// MaxFiles bounds the changed files reported.
const MaxFiles = 200

// Status is a repository's branch and what is changed in its work tree.
type Status struct {
	Branch    string   `json:"branch"` // "" when detached
	Head      string   `json:"head,omitempty"`
	Changed   []string `json:"changed"` // "M path", "A path", "?? path", ...
	Truncated bool     `json:"truncated,omitempty"`
}

// Read runs git status in dir. It returns ok=false when dir is not in a git
// repository or git is not installed, and an error when git failed or took
// longer than Timeout.
func Read(ctx context.Context, dir string) (Status, bool, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return Status{}, false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "status", "--porcelain=v2", "--branch", "--untracked-files=normal")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	switch {
	case ctx.Err() != nil:
		return Status{}, true, fmt.Errorf("git status in %s took longer than %s", dir, Timeout)
	case err != nil && strings.Contains(stderr.String(), "not a git repository"):
		return Status{}, false, nil
	case err != nil:
		return Status{}, true, fmt.Errorf("git status in %s: %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	return parse(out), true, nil
}

// parse reads porcelain v2 output.
func parse(out []byte) Status {
	st := Status{Changed: []string{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "# branch.head "):
			if b := strings.TrimPrefix(line, "# branch.head "); b != "(detached)" {
				st.Branch = b
			}
		case strings.HasPrefix(line, "# branch.oid "):
			st.Head = strings.TrimPrefix(line, "# branch.oid ")
		case strings.HasPrefix(line, "#"):
		default:
			if len(st.Changed) == MaxFiles {
				st.Truncated = true
				continue
			}
			st.Changed = append(st.Changed, entry(line))
		}
	}
	return st
}

// entry turns one porcelain v2 line into "XY path".
func entry(line string) string {
	f := strings.Fields(line)
	switch {
	case len(f) >= 2 && (f[0] == "?" || f[0] == "!"):
		return f[0] + f[0] + " " + strings.Join(f[1:], " ")
	case len(f) >= 9 && f[0] == "1":
		return strings.ReplaceAll(f[1], ".", " ") + " " + strings.Join(f[8:], " ")
	case len(f) >= 10 && f[0] == "2":
		return strings.ReplaceAll(f[1], ".", " ") + " " + strings.Join(f[9:], " ")
	case len(f) >= 11 && f[0] == "u":
		return "UU " + strings.Join(f[10:], " ")
	}
	return line
}
