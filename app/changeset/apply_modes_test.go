//go:build unix

package changeset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
