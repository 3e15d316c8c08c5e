package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"trestle/app/projconf"
	"trestle/app/store"
)

// openStore opens a real store file at path.
func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestTrustIsRememberedAndRevoked: a folder starts untrusted; trusted, it
// stays trusted in a later process (a new open of the same store file),
// is listed for Settings, and a revoke is remembered too. Another folder,
// even one inside it, is not trusted by it.
func TestTrustIsRememberedAndRevoked(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state.db")
	root := t.TempDir()
	p, err := Load(root, openStore(t, db), false)
	if err != nil || p.Trusted() {
		t.Fatalf("a new folder: trusted %v, %v; want untrusted", p.Trusted(), err)
	}
	var heard []bool
	p.OnChange(func(on bool) { heard = append(heard, on) })
	if err := p.Set(true); err != nil {
		t.Fatal(err)
	}
	again, err := Load(root, openStore(t, db), false)
	if err != nil || !again.Trusted() {
		t.Fatalf("after Trust, a later start: trusted %v, %v", again.Trusted(), err)
	}
	list, err := openStore(t, db).TrustedProjects()
	if err != nil || len(list) != 1 || list[0].Dir != root || list[0].Since.IsZero() {
		t.Fatalf("trusted projects %+v, %v", list, err)
	}
	sub := filepath.Join(root, "sub")
	os.Mkdir(sub, 0o755)
	if inner, _ := Load(sub, openStore(t, db), false); inner.Trusted() {
		t.Fatal("a folder inside a trusted one is trusted too")
	}
	if err := again.Set(false); err != nil {
		t.Fatal(err)
	}
	if later, _ := Load(root, openStore(t, db), false); later.Trusted() {
		t.Fatal("a revoked trust came back at the next start")
	}
	if len(heard) != 1 || !heard[0] {
		t.Fatalf("OnChange heard %v, want [true]", heard)
	}
}

// TestTrustForThisRunIsNotRemembered: --trust trusts the folder for one
// process; the store still says untrusted.
func TestTrustForThisRunIsNotRemembered(t *testing.T) {
	db := filepath.Join(t.TempDir(), "state.db")
	root := t.TempDir()
	p, _ := Load(root, openStore(t, db), true)
	if !p.Trusted() || !p.ForThisRun() {
		t.Fatal("--trust did not trust the project")
	}
	if later, _ := Load(root, openStore(t, db), false); later.Trusted() {
		t.Fatal("--trust was remembered")
	}
	var nothing *Project
	if nothing.Trusted() || nothing.Set(true) == nil {
		t.Fatal("a nil project is trusted, or can be")
	}
}

// TestUntrustedConfigWithholdsTasksAndEnv is issue 20's .trestle.json
// break: a tasks.build of sh -c and a selection env CC=./cc.sh with
// CGO_ENABLED=1. Untrusted, Build is go build again, the file's task is
// withheld (not dropped silently), and the selection keeps its tags but
// not its environment or preloads; trusting the project brings them back.
func TestUntrustedConfigWithholdsTasksAndEnv(t *testing.T) {
	root := t.TempDir()
	conf := `{"tasks": {"build": {"command": ["sh", "-c", "touch pwned"]}, "lint": {"command": ["./lint.sh"]},
		"vet": {"command": ["go", "vet", "./..."]}},
	 "selections": {"cgo": {"tags": ["x"], "env": {"CC": "./cc.sh", "CGO_ENABLED": "1"}}, "plain": {"tags": ["y"]},
		"default": {"preload": ["example.com/p"]}}}`
	os.WriteFile(filepath.Join(root, projconf.FileName), []byte(conf), 0o644)
	p, _ := Load(root, openStore(t, filepath.Join(t.TempDir(), "state.db")), false)
	get := p.Config(func() (projconf.Config, error) { return projconf.Load(root) })
	c, err := get()
	if err != nil {
		t.Fatal(err)
	}
	build, _ := c.Task("build")
	if strings.Join(build.Command, " ") != "go build ./..." {
		t.Fatalf("untrusted Build runs %q", build.Command)
	}
	if _, ok := c.Task("lint"); ok {
		t.Fatal("untrusted, the file's task lint is offered")
	}
	if w, ok := c.WithheldTask("lint"); !ok || w.Command[0] != "./lint.sh" {
		t.Fatalf("lint is not shown as withheld: %+v", c.Withheld)
	}
	if _, ok := c.WithheldTask("vet"); ok {
		t.Fatal("a task equal to the default is called withheld")
	}
	cgo, _ := c.Selection("cgo")
	if len(cgo.Env) != 0 || len(cgo.Tags) != 1 {
		t.Fatalf("untrusted selection cgo is %+v; want its tags and no environment", cgo)
	}
	if def, _ := c.Selection(""); len(def.Preload) != 0 {
		t.Fatalf("untrusted default selection preloads %v", def.Preload)
	}
	if sels := p.Selections(c); len(sels["cgo"].Env) != 0 {
		t.Fatalf("the evaluator gets the environment %v", sels["cgo"].Env)
	}
	want := "tasks build, lint; selection cgo's environment CC=./cc.sh CGO_ENABLED=1; selection default's preload example.com/p"
	if got := c.Withheld.Summary(); got != want {
		t.Fatalf("summary\n%s\nwant\n%s", got, want)
	}
	p.Set(true)
	c, _ = get()
	if build, _ := c.Task("build"); build.Command[0] != "sh" || c.Withheld != nil {
		t.Fatalf("trusted, Build is %q and %+v is withheld", build.Command, c.Withheld)
	}
}
