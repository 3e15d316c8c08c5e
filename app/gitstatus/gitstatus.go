package gitstatus

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// hardening is passed to every git we run. Command-line settings win over
// every config file, the repository's own included, and git hands them on
// to the gits it starts for submodules. A project's files are an agent's
// to propose, so nothing in them may name a command git runs:
//   - core.fsmonitor=false: the fsmonitor hook is a shell command git runs
//     on every status (issue 11: a config at the project root ran one);
//   - core.hooksPath=/dev/null: no hooks, whatever a config says;
//   - safe.bareRepository=explicit: never a bare repository found by
//     discovery (HEAD, config, objects/ and refs/ made the root one);
//   - core.untrackedCache=false, no optional locks: status only reads;
//   - protocol.allow=never (and GIT_NO_LAZY_FETCH): status and cat-file
//     never reach a remote, not even for a partial clone's missing blob.
//
// An untrusted project's git has, on top of these, every setting of its
// config files turned off (neutral.go) and no submodule status.
var hardening = []string{
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null",
	"-c", "safe.bareRepository=explicit",
	"-c", "core.untrackedCache=false",
	"-c", "diff.external=",
	"-c", "protocol.allow=never",
	"--no-optional-locks",
}

// Repository is where git's metadata and work tree are for a folder, and
// whether the person trusts the project (package trust).
type Repository struct {
	GitDir   string // the .git folder, or a .git file naming one
	WorkTree string // the folder holding .git
	// Trusted lets git use the repository's own configuration (filter
	// drivers such as git-lfs's, say). When false, the default, every
	// setting of every config file but a few harmless ones is turned off.
	Trusted bool
}

// Find looks for a .git (folder or file) in dir and each folder above it,
// as git's discovery does, but never takes a folder for a bare repository.
// ok is false when there is none.
func Find(dir string) (Repository, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Repository{}, false
	}
	for d := abs; ; {
		dotgit := filepath.Join(d, ".git")
		if info, err := os.Stat(dotgit); err == nil && (info.IsDir() || info.Mode().IsRegular()) {
			return Repository{GitDir: dotgit, WorkTree: d}, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return Repository{}, false
		}
		d = parent
	}
}

// Command is git with args for repo, hardened: the repository is named
// explicitly (GIT_DIR and GIT_WORK_TREE, so no discovery and no
// core.worktree), nothing from the environment chooses another, and no
// hook, fsmonitor or external diff runs. Unless repo is Trusted, every
// setting of the config files is turned off first (neutral.go), which
// runs git once to list them; the error says why that failed.
func Command(ctx context.Context, repo Repository, args ...string) (*exec.Cmd, error) {
	env := append(cleanEnv(os.Environ()),
		"GIT_DIR="+repo.GitDir, "GIT_WORK_TREE="+repo.WorkTree,
		"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "GIT_EXTERNAL_DIFF=", "GIT_NO_LAZY_FETCH=1")
	if !repo.Trusted {
		var err error
		if env, err = neutralEnv(ctx, repo, env); err != nil {
			return nil, err
		}
	}
	return command(ctx, repo, env, args...), nil
}

// command is git with the hardening, args and env, in repo's work tree.
func command(ctx context.Context, repo Repository, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append(append([]string(nil), hardening...), args...)...)
	cmd.Dir = repo.WorkTree
	cmd.Env = env
	return cmd
}

// cleanEnv drops the variables that would choose another repository, add
// settings or name a program for git to run.
func cleanEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "GIT_CONFIG_GLOBAL", name == "GIT_CONFIG_NOSYSTEM", name == "GIT_CONFIG_SYSTEM":
			out = append(out, kv) // where the person's own settings are
		case strings.HasPrefix(name, "GIT_"):
		default:
			out = append(out, kv)
		}
	}
	return out
}

// Read runs git status for dir, using the repository's configuration only
// when trusted (see Repository.Trusted). It returns ok=false when dir is
// not in a git repository or git is not installed, and an error when git
// failed or took longer than Timeout.
func Read(ctx context.Context, dir string, trusted bool) (Status, bool, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return Status{}, false, nil
	}
	repo, ok := Find(dir)
	if !ok {
		return Status{}, false, nil
	}
	repo.Trusted = trusted
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	args := []string{"status", "--porcelain=v2", "--branch", "--untracked-files=normal"}
	if !trusted {
		args = append(args, "--ignore-submodules=all") // a submodule's own config is not listed
	}
	cmd, err := Command(ctx, repo, args...)
	if err != nil {
		return Status{}, true, err
	}
	cmd.Dir = dir // paths as from the project folder, as before
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
