package main

// Running some rows only (-only): the benchmarks their figures and
// baselines come from, each run once, in the groups and with the
// benchtime of a whole run.

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// selectRows is the rows whose label re matches.
func selectRows(rows []row, re *regexp.Regexp) []row {
	var out []row
	for _, r := range rows {
		if re.MatchString(r.label) {
			out = append(out, r)
		}
	}
	return out
}

// runsFor narrows runs to the benchmarks that rows read: each run keeps
// the top-level benchmarks of its package that it selects and rows need
// (defined maps a benchmark to its package), and a single benchmark whose
// rows all read sub-benchmarks runs only those.
func runsFor(rows []row, runs []run, defined map[string]string) []run {
	var names []string            // top-level benchmarks, in the rows' order
	subs := map[string][]string{} // their first-level sub-benchmarks; "" is the whole
	for _, r := range rows {
		for _, m := range []*metric{&r.value, r.base} {
			if m == nil || m == busyBound {
				continue
			}
			top, rest, _ := strings.Cut(m.bench, "/")
			sub, _, _ := strings.Cut(rest, "/")
			if !slices.Contains(names, top) {
				names = append(names, top)
			}
			if !slices.Contains(subs[top], sub) {
				subs[top] = append(subs[top], sub)
			}
		}
	}
	taken := map[string]bool{}
	var out []run
	for _, r := range runs {
		var match []string
		for _, n := range names {
			if !taken[n] && defined[n] == r.pkg && selects(r.bench, n) {
				match, taken[n] = append(match, n), true
			}
		}
		if len(match) == 0 {
			continue
		}
		pattern := "^(" + strings.Join(match, "|") + ")$"
		if _, sub, ok := strings.Cut(r.bench, "/"); ok {
			pattern += "/" + sub
		} else if len(match) == 1 && !slices.Contains(subs[match[0]], "") {
			pattern += "/^(" + strings.Join(subs[match[0]], "|") + ")$"
		}
		out = append(out, run{r.pkg, pattern, r.benchtime})
	}
	return out
}

// selects reports whether go test's -bench pattern selects the top-level
// benchmark name.
func selects(pattern, name string) bool {
	top, _, _ := strings.Cut(pattern, "/")
	return regexp.MustCompile(top).MatchString(name)
}

// benchmarksByPackage maps each Benchmark function of the repository at
// root to its package, as go test names it ("./app/linediff").
func benchmarksByPackage(root string) (map[string]string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return nil, err
	}
	decl := regexp.MustCompile(`(?m)^func (Benchmark\w+)\(`)
	found := map[string]string{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			found[m[1]] = "./" + filepath.ToSlash(rel)
		}
		return nil
	})
	return found, err
}
