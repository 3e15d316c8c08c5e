package search

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRun(t *testing.T) {
	root := tree(t, map[string]string{
		"main.go":         "package main\n\nfunc main() {\n\tHello()\n}\n",
		"hello.go":        "package main\n\n// Hello says héllo.\nfunc Hello() { println(\"héllo\") }\n",
		"crlf.txt":        "one\r\nhello there\r\n",
		"vendor/x/x.go":   "package x // Hello\n",
		".git/HEAD":       "Hello\n",
		"bin.dat":         "Hello\x00\x01",
		"docs/readme.md":  "say HELLO\n",
		"docs/other.md":   "nothing\n",
		"deep/a/b/c.go":   "package c\nvar hello = 1\n",
		"deep/a/b/c_test": "hello",
	})
	ignored := func(rel string, dir bool) bool { return rel == "vendor" }
	tests := []struct {
		name  string
		q     Query
		want  []string // path:line:col
		trunc bool
	}{
		{"literal", Query{Pattern: "Hello("}, []string{"hello.go:4:6", "main.go:4:2"}, false},
		{"case-insensitive", Query{Pattern: "hello", IgnoreCase: true, Glob: "*.md"}, []string{"docs/readme.md:1:5"}, false},
		{"regexp", Query{Pattern: `h.llo\b`, Regexp: true, Glob: "*.go"}, []string{"deep/a/b/c.go:2:5", "hello.go:3:15", "hello.go:4:25"}, false},
		{"rune columns and CRLF", Query{Pattern: "there"}, []string{"crlf.txt:2:7"}, false},
		{"limit", Query{Pattern: "package", Limit: 2}, []string{"deep/a/b/c.go:1:1", "hello.go:1:1"}, true},
		{"regexp metachars are literal", Query{Pattern: "Hello()"}, []string{"hello.go:4:6", "main.go:4:2"}, false},
		{"nothing", Query{Pattern: "zzz"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Run(context.Background(), root, tt.q, Options{Ignored: ignored})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Matches {
				got = append(got, m.Path+":"+itoa(m.Line)+":"+itoa(m.Column))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") || res.Truncated != tt.trunc {
				t.Fatalf("got %v (truncated %v), want %v (%v)", got, res.Truncated, tt.want, tt.trunc)
			}
		})
	}
	if res, _ := Run(context.Background(), root, Query{Pattern: "there"}, Options{}); res.Matches[0].Text != "hello there" {
		t.Fatalf("text %q keeps the CR", res.Matches[0].Text)
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "x"})
	for _, q := range []Query{{Pattern: ""}, {Pattern: "(", Regexp: true}, {Pattern: "x", Glob: "["}} {
		if _, err := Run(context.Background(), root, q, Options{}); err == nil {
			t.Errorf("%+v: no error", q)
		}
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "x"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, root, Query{Pattern: "x"}, Options{}); err == nil {
		t.Fatal("a cancelled search returned no error")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestAnchorsMatchEveryLine: ^ and $ in a regexp match at each line, as a
// person reading "per line" expects, in LF and CRLF files alike (the
// one-pass test of a whole file once let only the first line match ^).
func TestAnchorsMatchEveryLine(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"lf.go":   "// x\npackage lf\n",
		"crlf.go": "// x\r\npackage crlf\r\n",
		"no.go":   "// package no more\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pattern := range []string{`^package \w+$`, `^package`, `\w+$`} {
		res, err := Run(context.Background(), root, Query{Pattern: pattern, Regexp: true, Glob: "*.go"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, m := range res.Matches {
			if _, seen := got[m.Path]; !seen {
				got[m.Path] = m.Line // the first matching line
			}
		}
		if pattern == `\w+$` {
			if got["lf.go"] != 1 || got["crlf.go"] != 1 || got["no.go"] != 1 {
				t.Errorf("%s: matches %v, want line 1 of every file", pattern, got)
			}
			continue
		}
		if len(got) != 2 || got["lf.go"] != 2 || got["crlf.go"] != 2 {
			t.Errorf("%s: matches %v, want line 2 of lf.go and crlf.go only", pattern, got)
		}
	}
}

// TestRunSkipsGitInAnyCase: .git/config can hold credentials; on macOS and
// Windows .GIT is the same folder, and a .git file names a repository.
func TestRunSkipsGitInAnyCase(t *testing.T) {
	root := tree(t, map[string]string{
		".git/config":    "url = https://u:hunter2@h/r\n",
		".GIT/config":    "url = https://u:hunter2@h/r\n",
		"a/.Git/config":  "url = https://u:hunter2@h/r\n",
		"sub/.git":       "gitdir: hunter2\n",
		"main.go":        "// hunter2 is fine here\n",
		".github/ci.yml": "hunter2\n",
	})
	res, err := Run(context.Background(), root, Query{Pattern: "hunter2"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Matches {
		got = append(got, m.Path)
	}
	if strings.Join(got, ",") != ".github/ci.yml,main.go" {
		t.Fatalf("matches in %v, want only .github/ci.yml and main.go", got)
	}
}

// TestWholeFilePrefilterStaysWithinLines: the whole-file test matches a
// text exactly when some line of it matches the pattern, so no file whose
// lines never match passes it (a \s or [^x] could span a newline).
func TestWholeFilePrefilterStaysWithinLines(t *testing.T) {
	texts := []string{
		"if err != nil {\n\treturn err\n}\n",
		"if err != nil { return err }\n",
		"a\nb\n", "ab\n", "x\n\ny", "", "tab\there\n", "end", "line one\r\nline two\r\n",
	}
	for _, pat := range []string{`err != nil \{\s*return`, `a[^x]b`, `(?s)a.b`, `a\Db`, `x[\n]*y`, `x\n\ny`,
		`^\s*return`, `^$`, `\bb\b`, `(?i)LINE\sTWO`, `[[:space:]]here`, `\s+`} {
		re := regexp.MustCompile(pat)
		whole := withinLines(re)
		if whole == nil {
			t.Fatalf("%s: not rewritten", pat)
		}
		for _, text := range texts {
			want := false
			for _, line := range strings.Split(text, "\n") {
				want = want || re.MatchString(line)
			}
			if got := whole.MatchString(text); got != want {
				t.Errorf("%s on %q: whole-file test %v, lines %v (rewritten %s)", pat, text, got, want, whole)
			}
		}
	}
}
