//go:build unix

package changeset

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"

	"trestle/app/errdefs"
)

// TestApplyKeepsEveryModePastTheUmask: an apply creates each new file with
// its mode and fchmods it only when the umask took bits away, so a
// group-writable file must come out group-writable under umask 022, a
// private one private and an executable one executable, one after another
// (few files) and from several goroutines at once (many).
func TestApplyKeepsEveryModePastTheUmask(t *testing.T) {
	old, cached := syscall.Umask(0o022), processUmask
	processUmask = sync.OnceValue(readUmask) // read again, under 022
	defer func() { syscall.Umask(old); processUmask = cached }()
	if u := processUmask(); u != 0o022 && u != 0o777 { // 0777: not Linux, every file is fchmodded
		t.Fatalf("the umask read is %o; the test set 022", u)
	}
	modes := []fs.FileMode{0o664, 0o600, 0o755, 0o444, 0o640, 0o644}
	for _, n := range []int{len(modes), 4 * parallelFrom} {
		t.Run(fmt.Sprint(n, " files"), func(t *testing.T) {
			files := map[string]string{}
			for i := range n {
				files[fmt.Sprintf("d%d/f%d.txt", i%3, i)] = fmt.Sprintf("file %d\n", i)
			}
			p := newProject(t, files)
			want := map[string]tfile{}
			var changes []Change
			for i := range n {
				name := fmt.Sprintf("d%d/f%d.txt", i%3, i)
				mode := modes[i%len(modes)]
				if err := os.Chmod(filepath.Join(p.Root, name), mode); err != nil {
					t.Fatal(err)
				}
				want[name] = tfile{fmt.Sprintf("file %d, edited\n", i), mode}
				changes = append(changes, Change{Path: name, Action: ActionEdit,
					Edits: []Edit{{OldText: "\n", NewText: ", edited\n"}}})
			}
			m := newManager(t, p)
			cs, err := m.Propose(diskReader(p), Proposal{Title: "modes", Changes: changes})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
				t.Fatal(err)
			}
			sameFiles(t, p, want)
		})
	}
}

// TestApplyFindsAHEADThatAppearedBesideAFile: an apply looks for a HEAD
// beside each file it writes through the transaction's own folder
// listing (which learns an entry's type only when its name is HEAD): a
// HEAD file put there after the proposal refuses the apply, whatever its
// letter case, and a folder named HEAD does not.
func TestApplyFindsAHEADThatAppearedBesideAFile(t *testing.T) {
	files := map[string]string{}
	var changes []Change
	for i := range 2 * parallelFrom {
		name := fmt.Sprintf("pkg/sub/f%d.go", i)
		files[name] = "package sub\n"
		changes = append(changes, Change{Path: name, Action: ActionEdit, Edits: []Edit{{OldText: "sub", NewText: "sub // edited"}}})
	}
	for _, tc := range []struct {
		name    string
		make    func(dir string) error
		refused bool
	}{
		{"a HEAD file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
		}, true},
		{"a head file in lower case", func(dir string) error { return os.WriteFile(filepath.Join(dir, "head"), []byte("x"), 0o644) }, true},
		{"a folder named HEAD", func(dir string) error { return os.Mkdir(filepath.Join(dir, "HEAD"), 0o755) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProject(t, files)
			m := newManager(t, p)
			cs, err := m.Propose(diskReader(p), Proposal{Title: "t", Changes: changes})
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.make(filepath.Join(p.Root, "pkg", "sub")); err != nil {
				t.Fatal(err)
			}
			_, err = m.Apply(cs.ID, nil, diskReader(p), nil)
			data, readErr := os.ReadFile(filepath.Join(p.Root, "pkg", "sub", "f0.go"))
			if readErr != nil {
				t.Fatal(readErr)
			}
			edited := strings.Contains(string(data), "edited")
			switch {
			case tc.refused && (!errors.Is(err, errdefs.ErrInvalid) || !strings.Contains(err.Error(), "HEAD file")):
				t.Fatalf("apply beside %s: %v, want a refusal naming the HEAD file", tc.name, err)
			case tc.refused && edited:
				t.Fatalf("apply beside %s wrote f0.go", tc.name)
			case !tc.refused && (err != nil || !edited):
				t.Fatalf("apply beside %s: %v (f0.go edited: %v), want it applied", tc.name, err, edited)
			}
		})
	}
}

// TestOSWriterRelAgreesWithFilepathRel: rel's shortcut for a clean name
// below Root gives what filepath.Rel gives, and every name outside Root
// is refused as before.
func TestOSWriterRelAgreesWithFilepathRel(t *testing.T) {
	w := OSWriter{Root: "/work/proj"}
	for _, name := range []string{
		"/work/proj/a.go", "/work/proj/pkg/a.go", "/work/proj/pkg/.a.go.trestle-1", "/work/proj/...",
		"/work/proj", "/work/proj/", "/work/proj/./a.go", "/work/proj/pkg/../a.go", "/work/proj//a.go",
		"/work/proj/..", "/work/proj/../x", "/work/projx/a.go", "/work/proj/a/..", "/work/proj/a/.", "/other/a.go",
	} {
		got, err := w.rel(name)
		want, werr := filepath.Rel(w.Root, name)
		if werr != nil || !filepath.IsLocal(want) && want != "." {
			if err == nil {
				t.Errorf("rel(%q) = %q, want it refused", name, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("rel(%q) = %q, %v; filepath.Rel says %q", name, got, err, want)
		}
	}
}

// TestJournalTailRoundTrip: a journal keeps its steps' old texts after its
// JSON; a journal of the version before (JSON alone) still reads; a tail
// cut short says so rather than giving part of a file.
func TestJournalTailRoundTrip(t *testing.T) {
	ops := []fileOp{
		{rel: "a.go", abs: "/p/a.go", data: "new a", old: "old a", hasOld: true, mode: 0o640},
		{rel: "b.go", abs: "/p/b.go", data: "new b"},
		{rel: "c.go", abs: "/p/c.go", data: "new c", old: "old c\x00\n{", hasOld: true, mode: 0o755},
	}
	j := planJournal(OSWriter{}, "t1", "apply", "cs-1", "/p", ops, []bool{true, false, true})
	data, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	whole := append(append(data, '\n'), j.tail...)
	got, err := parseJournal(whole)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"old a", "", "old c\x00\n{"} {
		old, ok := got.old(got.Steps[i])
		if ok != (want != "") || string(old) != want {
			t.Errorf("step %d: old %q, %v; want %q", i, old, ok, want)
		}
	}
	if got.Steps[2].Mode != 0o755 || !got.Steps[2].OldKept || got.Steps[1].OldKept {
		t.Errorf("steps: %+v", got.Steps)
	}
	if plain, err := parseJournal(data); err != nil || len(plain.tail) != 0 || len(plain.Steps) != 3 {
		t.Errorf("a journal without a tail: %v, %+v", err, plain)
	}
	cut, err := parseJournal(whole[:len(whole)-3])
	if err != nil {
		t.Fatal(err)
	}
	if old, ok := cut.old(cut.Steps[2]); ok {
		t.Errorf("a cut tail gave %q", old)
	}
	if _, err := parseJournal(append(data, 'x')); err == nil {
		t.Error("data after the JSON without a newline was read")
	}
}

// TestCloneRecordSharesNoSlice: every slice in a ChangeSet, filled in
// whatever fields it has now or gets later, is a slice of the clone's own
// (update changes the clone of a record get kept).
func TestCloneRecordSharesNoSlice(t *testing.T) {
	var cs ChangeSet
	fillForClone(reflect.ValueOf(&cs).Elem())
	clone := cloneRecord(cs)
	var walk func(path string, a, b reflect.Value)
	walk = func(path string, a, b reflect.Value) {
		switch a.Kind() {
		case reflect.Struct:
			for i := range a.NumField() {
				if f := a.Type().Field(i); f.IsExported() { // time.Time's location pointer is shared, and never changed
					walk(path+"."+f.Name, a.Field(i), b.Field(i))
				}
			}
		case reflect.Slice:
			if a.Len() == 0 {
				t.Errorf("%s: the fixture left it empty", path)
				return
			}
			if a.Pointer() == b.Pointer() {
				t.Errorf("%s: the clone shares its array", path)
			}
			for i := range a.Len() {
				walk(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i))
			}
		case reflect.Map, reflect.Pointer:
			t.Errorf("%s: a %s, which cloneRecord does not copy", path, a.Kind())
		}
	}
	walk("ChangeSet", reflect.ValueOf(cs), reflect.ValueOf(clone))
}

// fillForClone gives every exported slice in v one element, recursively.
func fillForClone(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillForClone(v.Field(i))
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fillForClone(v.Index(0))
	case reflect.String:
		v.SetString("x")
	}
}
