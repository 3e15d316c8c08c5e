package gitstatus

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// hostileRepo is a real repository, as a cloned and extracted project
// would be, whose own configuration names commands git would run: a
// committed .gitattributes routes *.go through the filter driver "evil"
// and *.txt through the diff driver "evil"; .git/config defines the
// filter's clean, smudge and process commands, the diff driver's textconv
// and command, and includes a second config that defines another filter
// (used by *.md), and another one whose subsection holds an '=' (which a
// -c setting cannot name). Every command creates a file in marks; the
// work tree's stat data no longer matches the index, so a status hashes
// the files again through the clean filter.
func hostileRepo(t *testing.T) (root, marks string) {
	t.Helper()
	needGit(t)
	root, marks = t.TempDir(), t.TempDir()
	git := plainGit(t, root)
	git("init", "-q", "-b", "main")
	testfix.WriteFiles(t, root, map[string]string{
		".gitattributes": "*.go filter=evil diff=evil\n*.txt diff=evil\n*.md filter=included\n*.c filter=a=b\n",
		"a.go":           "package a\n", "b.txt": "text\n", "c.md": "# c\n", "d.c": "int d;\n",
	})
	git("add", ".")
	git("commit", "-q", "-m", "first")
	mark := func(name string) string { return `"sh -c 'touch ` + filepath.Join(marks, name) + `; cat'"` }
	extra := filepath.Join(root, ".git", "extra.config")
	if err := os.WriteFile(extra, []byte("[filter \"included\"]\n\tclean = "+mark("included-clean")+"\n\tsmudge = "+mark("included-smudge")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(root, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("[filter \"evil\"]\n\tclean = " + mark("clean") + "\n\tsmudge = " + mark("smudge") + "\n\trequired = true\n" +
		"[filter \"a=b\"]\n\tclean = " + mark("eq-clean") + "\n" +
		"[diff \"evil\"]\n\ttextconv = " + mark("textconv") + "\n\tcommand = " + mark("diff-command") + "\n" +
		"[diff]\n\texternal = " + mark("external") + "\n" +
		"[include]\n\tpath = extra.config\n")
	f.Close()
	// A later time on every file: the index's stat data no longer matches.
	later := time.Now().Add(time.Hour)
	for _, name := range []string{"a.go", "b.txt", "c.md", "d.c"} {
		os.Chtimes(filepath.Join(root, name), later, later)
	}
	return root, marks
}

// assertNothingRan fails when any of the repository's commands ran.
func assertNothingRan(t *testing.T, marks string) {
	t.Helper()
	if ran, _ := os.ReadDir(marks); len(ran) > 0 {
		names := make([]string, len(ran))
		for i, e := range ran {
			names[i] = e.Name()
		}
		t.Fatalf("git ran the repository's commands: %v", names)
	}
}

// TestUntrustedGitRunsNoConfiguredCommand is issue 20's first break: a
// committed .gitattributes and the repository's config made git status
// run a filter driver when the window opened, under any agent policy.
// What the window runs on open, and the Changes pane and gutter run
// later, is run here on the real repository: nothing it configures runs.
func TestUntrustedGitRunsNoConfiguredCommand(t *testing.T) {
	root, marks := hostileRepo(t)
	st, ok, err := Read(context.Background(), root, false)
	if !ok || err != nil {
		t.Fatalf("status of an untrusted repository: %+v %v %v", st, ok, err)
	}
	repo, _ := Find(root)
	for _, name := range []string{"a.go", "b.txt", "c.md", "d.c"} {
		if _, exists, err := HeadText(context.Background(), repo, filepath.Join(root, name)); !exists || err != nil {
			t.Fatalf("HEAD's %s: %v %v", name, exists, err)
		}
	}
	assertNothingRan(t, marks)
}

// TestTrustedGitUsesTheRepositorysFilters: trusted, a project's git is as
// before: its filter drivers (git-lfs's, say) run, so status is right.
func TestTrustedGitUsesTheRepositorysFilters(t *testing.T) {
	root, marks := hostileRepo(t)
	Read(context.Background(), root, true)
	if _, err := os.Stat(filepath.Join(marks, "clean")); err != nil {
		t.Fatalf("a trusted repository's clean filter did not run: %v", err)
	}
}

// TestUntrustedGitReadsAnOrdinaryRepository: settings git reads as numbers
// or names (kept), an unknown section and a user name (turned off) leave
// an untrusted repository's status as it is.
func TestUntrustedGitReadsAnOrdinaryRepository(t *testing.T) {
	root, _ := hostileRepo(t)
	for _, kv := range [][2]string{{"core.compression", "9"}, {"core.abbrev", "12"}, {"diff.renameLimit", "100"},
		{"status.renameLimit", "50"}, {"user.name", "Someone"}, {"custom.thing", "7"}, {"index.threads", "2"}} {
		if out, err := exec.Command("git", "-C", root, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
			t.Fatalf("git config %v: %v\n%s", kv, err, out)
		}
	}
	os.WriteFile(filepath.Join(root, "a.go"), []byte("package a // changed\n"), 0o644)
	st, ok, err := Read(context.Background(), root, false)
	if !ok || err != nil || st.Branch != "main" || len(st.Changed) != 1 || st.Changed[0] != " M a.go" {
		t.Fatalf("status of an untrusted ordinary repository: %+v %v %v", st, ok, err)
	}
}

// TestNeutralSettingsKeepOnlyHarmlessSettings: what the repository sets
// is turned off unless kept; the person's own settings, our own command
// line and includes are left alone; a key both set is turned off and then
// set to the person's own values again.
func TestNeutralSettingsKeepOnlyHarmlessSettings(t *testing.T) {
	out := "system\x00credential.helper\nosxkeychain\x00global\x00filter.lfs.process\ngit-lfs filter-process\x00" +
		"global\x00filter.lfs.required\x00local\x00core.bare\nfalse\x00" +
		"local\x00filter.a=b.clean\nevil\x00local\x00include.path\nx.config\x00local\x00includeif.gitdir:/x/.path\ny\x00" +
		"local\x00remote.Origin.fetch\n+refs/heads/*:refs/remotes/origin/*\x00local\x00remote.origin.uploadpack\nevil\x00" +
		"local\x00extensions.objectformat\nsha1\x00worktree\x00core.sshcommand\nevil\x00local\x00core.sshcommand\nevil2\x00" +
		"local\x00filter.lfs.process\nevil\nwith a newline\x00local\x00credential.helper\nevil\x00" +
		"command\x00core.fsmonitor\nfalse\x00command\x00" + probeKey + "\ntrue\x00"
	settings, probed := neutralSettings([]byte(out))
	want := [][2]string{{"filter.a=b.clean", ""}, {"remote.origin.uploadpack", ""}, {"core.sshcommand", ""},
		{"filter.lfs.process", ""}, {"filter.lfs.process", "git-lfs filter-process"},
		{"credential.helper", ""}, {"credential.helper", "osxkeychain"}}
	if !probed || !slices.Equal(settings, want) {
		t.Fatalf("settings %q (probe seen: %v), want %q", settings, probed, want)
	}
}

// TestUntrustedStatusOfBbolt: on a real module (bbolt, from the module
// cache) committed to a real repository with a few everyday settings, an
// untrusted status says what a trusted one says.
func TestUntrustedStatusOfBbolt(t *testing.T) {
	needGit(t)
	root := testfix.CopyBbolt(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@x")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "bbolt")
	git("config", "core.autocrlf", "input")
	git("config", "status.showUntrackedFiles", "all")
	git("config", "user.signingkey", "ABCDEF")
	os.WriteFile(filepath.Join(root, "db.go"), []byte("package bbolt // emptied\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "new"), 0o755)
	os.WriteFile(filepath.Join(root, "new", "x.go"), []byte("package x\n"), 0o644)
	trusted, ok1, err1 := Read(context.Background(), root, true)
	untrusted, ok2, err2 := Read(context.Background(), root, false)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || strings.Join(trusted.Changed, "|") != strings.Join(untrusted.Changed, "|") ||
		len(untrusted.Changed) != 2 || untrusted.Branch != "main" {
		t.Fatalf("trusted %+v %v %v\nuntrusted %+v %v %v", trusted, ok1, err1, untrusted, ok2, err2)
	}
}

// TestUntrustedGitKeepsThePersonsOwnFilters is issue 20's git-lfs break:
// an untrusted project's git turned off every setting of every config
// file, the person's own ~/.gitconfig too, so their git-lfs filter
// (filter.lfs, required) no longer ran and status failed or lied. Only
// the repository's own settings (its .git/config and what that includes)
// are turned off: the person's filter "mine" runs; the repository's
// "evil" does not; and "shared", which the person defines and the
// repository redefines, runs the person's command, not the repository's.
func TestUntrustedGitKeepsThePersonsOwnFilters(t *testing.T) {
	needGit(t)
	root, marks, home := t.TempDir(), testfix.NewMarks(t), t.TempDir()
	git := plainGit(t, root)
	git("init", "-q", "-b", "main")
	files := map[string]string{
		".gitattributes": "*.bin filter=mine\n*.sh filter=shared\n*.go filter=evil\n",
		"big.bin":        "pretend large\n", "run.sh": "echo hi\n", "a.go": "package a\n",
	}
	testfix.WriteFiles(t, root, files)
	git("add", ".")
	git("commit", "-q", "-m", "first")
	filter := func(name, mark string) string {
		return "[filter \"" + name + "\"]\n\tclean = \"sh -c '" + marks.Touch(mark) + "; cat'\"\n\trequired = true\n"
	}
	f, err := os.OpenFile(filepath.Join(root, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(filter("evil", "repo-evil") + filter("shared", "repo-shared"))
	f.Close()
	testfix.WriteFiles(t, home, map[string]string{".gitconfig": filter("mine", "person-mine") + filter("shared", "person-shared")})
	t.Setenv("HOME", home)
	later := time.Now().Add(time.Hour) // the index's stat data no longer matches: status cleans every file
	for name := range files {
		os.Chtimes(filepath.Join(root, name), later, later)
	}

	st, ok, err := Read(context.Background(), root, false)
	if !ok || err != nil || len(st.Changed) != 0 {
		t.Fatalf("status of an untrusted repository with the person's own filters: %+v %v %v", st, ok, err)
	}
	if left := strings.Join(marks.Left(), " "); left != "person-mine person-shared" {
		t.Fatalf("filters that ran: %q; want the person's own (person-mine person-shared), none of the repository's", left)
	}
}

// plainGit runs git in root with no system or global config, failing the
// test when it fails.
func plainGit(t *testing.T, root string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@x", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@x", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}
