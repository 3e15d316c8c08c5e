package compiled

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// stdPackages maps a standard package's name to its import path, for the
// names that only one non-internal standard package has ("rand" has two
// and is left out). It is read once per process with `go list std`.
var stdPackages = struct {
	once    sync.Once
	byName  map[string]string
	version string // the toolchain's language version, e.g. go1.26
	goroot  string // the toolchain's GOROOT
}{}

func standardPackages(goCmd string) map[string]string {
	stdPackages.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, goCmd, "list", "std").Output()
		m := map[string]string{}
		if err == nil {
			seen := map[string]int{}
			for _, p := range strings.Fields(string(out)) {
				if strings.Contains(p, "internal") || strings.HasPrefix(p, "vendor/") || strings.HasPrefix(p, "cmd/") {
					continue
				}
				name := p[strings.LastIndexByte(p, '/')+1:]
				seen[name]++
				m[name] = p
			}
			for name, n := range seen {
				if n > 1 {
					delete(m, name)
				}
			}
		}
		stdPackages.byName = m
		if v, err := exec.CommandContext(ctx, goCmd, "env", "GOVERSION", "GOROOT").Output(); err == nil {
			version, root, _ := strings.Cut(strings.TrimSpace(string(v)), "\n")
			stdPackages.version = languageVersion(version)
			stdPackages.goroot = root
		}
	})
	return stdPackages.byName
}

// toolchainVersion is the go command's language version ("go1.26"), "" if unknown.
func toolchainVersion(goCmd string) string {
	standardPackages(goCmd)
	return stdPackages.version
}

// goroot is the go command's GOROOT, "" if unknown.
func goroot(goCmd string) string {
	standardPackages(goCmd)
	return stdPackages.goroot
}

// languageVersion cuts go1.26.8 (or go1.26rc1) to go1.26.
func languageVersion(v string) string {
	if !strings.HasPrefix(v, "go1.") {
		return ""
	}
	rest := v[len("go1."):]
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	if end == 0 {
		return ""
	}
	return "go1." + rest[:end]
}

// autoImports are the standard packages the input uses by name without an
// import (as goimports would add them, and as GoNB does): for each
// qualifier that no import binds and no declaration names.
func (s *Session) autoImports(set declSet, known []importDecl, in *input) []importDecl {
	bound := map[string]bool{}
	for _, i := range append(append([]importDecl{}, set.imports...), known...) {
		bound[i.local()] = true
	}
	var out []importDecl
	for q := range usedQualifiers(set, in) {
		if bound[q] || set.declares(q) {
			continue
		}
		if path, ok := standardPackages(s.opts.GoCommand)[q]; ok {
			out = append(out, importDecl{path: path, line: 1, col: 1, origin: generatedFile})
		}
	}
	return out
}
