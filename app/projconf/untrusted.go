package projconf

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Withheld is what .trestle.json asks for that an untrusted project does
// not get: the tasks it adds or redefines (Build, Test and Vet stay the
// defaults) and the environment and preloaded packages of its selections
// (a CC=./cc.sh with CGO_ENABLED=1 would run the project's script). It is
// shown, never used.
type Withheld struct {
	Tasks      map[string]Task      // as the file defines them
	Selections map[string]Selection // the file's selections whose env or preload is withheld, as defined
}

// Untrusted returns c as an untrusted project gets it: the default tasks,
// and selections that keep their build tags (which choose files and run
// nothing) but lose their environment and preloads. What was dropped is
// in the result's Withheld, nil when nothing was. A default task that
// runs the project's own code (test) carries NeedsTrust: go build and go
// vet compile and check the code as gopls does, go test runs it.
func (c Config) Untrusted() Config {
	def := Defaults()
	out := Config{Selections: map[string]Selection{}, Tasks: map[string]Task{}}
	for name, t := range def.Tasks {
		t.NeedsTrust = runsProjectCode(t.Command)
		out.Tasks[name] = t
	}
	w := &Withheld{Tasks: map[string]Task{}, Selections: map[string]Selection{}}
	for name, t := range c.Tasks {
		if d, ok := def.Tasks[name]; !ok || !reflect.DeepEqual(d, t) {
			w.Tasks[name] = t
		}
	}
	for name, s := range c.Selections {
		if len(s.Env) > 0 || len(s.Preload) > 0 {
			w.Selections[name] = s
		}
		out.Selections[name] = Selection{Tags: s.Tags}
	}
	if len(w.Tasks) > 0 || len(w.Selections) > 0 {
		out.Withheld = w
	}
	return out
}

// WithheldTask returns the task name as .trestle.json defines it when an
// untrusted project withholds it.
func (c Config) WithheldTask(name string) (Task, bool) {
	if c.Withheld == nil {
		return Task{}, false
	}
	t, ok := c.Withheld.Tasks[name]
	return t, ok
}

// Summary says in one line what is withheld, for a person or an agent:
// `tasks lint, test; selection cgo's environment CC=./cc.sh CGO_ENABLED=1`.
// It is "" when nothing is.
func (w *Withheld) Summary() string {
	if w == nil {
		return ""
	}
	var parts []string
	if len(w.Tasks) > 0 {
		parts = append(parts, "tasks "+strings.Join(slices.Sorted(maps.Keys(w.Tasks)), ", "))
	}
	for _, name := range slices.Sorted(maps.Keys(w.Selections)) {
		s := w.Selections[name]
		var what []string
		if len(s.Env) > 0 {
			var env []string
			for _, k := range slices.Sorted(maps.Keys(s.Env)) {
				env = append(env, k+"="+shown(s.Env[k]))
			}
			what = append(what, "environment "+strings.Join(env, " "))
		}
		if len(s.Preload) > 0 {
			what = append(what, "preload "+strings.Join(s.Preload, ", "))
		}
		parts = append(parts, fmt.Sprintf("selection %s's %s", name, strings.Join(what, " and ")))
	}
	return strings.Join(parts, "; ")
}

// shown is v as one visible word: quoted when it holds a space, a quote
// or a control character.
func shown(v string) string {
	if v == "" || strings.ContainsFunc(v, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == '"' }) {
		return strconv.Quote(v)
	}
	return v
}

// runsProjectCode says which of the project's code a go command line
// runs, or "" when it runs none: go test runs the package's tests with
// their init functions and TestMain, go run its program, go generate the
// commands its files name.
func runsProjectCode(cmd []string) string {
	if len(cmd) < 2 || filepath.Base(cmd[0]) != "go" {
		return ""
	}
	switch cmd[1] {
	case "test":
		return "runs the project's own code (its tests, TestMain and init functions)"
	case "run":
		return "runs the project's own program"
	case "generate":
		return "runs the commands the project's //go:generate lines name"
	}
	return ""
}
