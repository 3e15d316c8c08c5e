package ignore

import (
	"path"
	"strings"
)

// This is a focused gitignore pattern matcher, written here rather than
// linked: the module that offered one (go-git) linked twelve packages of a
// git implementation for a hundred lines, and read git's "[!...]" classes
// as literal text; the small stand-alone matchers are unmaintained. It
// follows gitignore(5), and TestMatchesGitOnARealTree holds it to git
// itself on a real module's files.
//
// A pattern is matched against a whole project path, component by
// component; Matcher.Ignored asks about every parent folder too, so a
// pattern that names a folder also covers what is below it, and a negation
// cannot bring back a file whose folder is ignored.

// pattern is one line of an ignore file.
type pattern struct {
	domain   []string // the folder of the ignore file, whose paths it judges
	parts    []string // the pattern's components; "**" matches any number of folders
	anchored bool     // a slash at the start or in the middle: matched from domain, else at any depth
	negated  bool     // "!": the path is not ignored after all
	dirOnly  bool     // a trailing slash: folders only
}

// parsePattern reads one line of an ignore file whose folder is domain;
// ok is false for blank lines and comments.
func parsePattern(line string, domain []string) (p pattern, ok bool) {
	line = trimTrailingSpaces(line)
	if line == "" || line[0] == '#' {
		return p, false
	}
	if line[0] == '!' {
		p.negated, line = true, line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		p.anchored, line = true, strings.TrimLeft(line, "/")
	}
	if line == "" {
		return p, false
	}
	p.domain = domain
	for _, part := range strings.Split(line, "/") {
		if part != "**" {
			part = bracketNegation(part)
		}
		p.parts = append(p.parts, part)
	}
	return p, true
}

// trimTrailingSpaces drops the spaces at the end of line, unless a
// backslash escapes one.
func trimTrailingSpaces(line string) string {
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	return line
}

// bracketNegation writes git's "[!...]" as path.Match's "[^...]".
func bracketNegation(part string) string {
	return strings.ReplaceAll(part, "[!", "[^")
}

// match reports whether p matches the path (components from the project
// root), a folder when isDir.
func (p pattern) match(parts []string, isDir bool) bool {
	if len(parts) <= len(p.domain) || (p.dirOnly && !isDir) {
		return false
	}
	for i, d := range p.domain {
		if parts[i] != d {
			return false
		}
	}
	rel := parts[len(p.domain):]
	if !p.anchored {
		return len(p.parts) == 1 && component(p.parts[0], rel[len(rel)-1])
	}
	return components(p.parts, rel)
}

// components matches pattern components against path components: "**"
// matches any number of them (at the end, at least one: "dir/**" is what
// is inside dir).
func components(pat, parts []string) bool {
	if len(pat) == 0 {
		return len(parts) == 0
	}
	if pat[0] == "**" {
		if len(pat) == 1 {
			return len(parts) > 0
		}
		for i := range len(parts) + 1 {
			if components(pat[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	return len(parts) > 0 && component(pat[0], parts[0]) && components(pat[1:], parts[1:])
}

// component matches one name with a glob: * ? [...] and \ escapes. A
// malformed glob matches nothing.
func component(glob, name string) bool {
	ok, err := path.Match(glob, name)
	return err == nil && ok
}
