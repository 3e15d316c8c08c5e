package changeset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"trestle/app/project"
)

// A full disk during apply (issue 7). Root ignores permission bits, so the
// failure is injected through the Writer seam, and once for real on a
// small tmpfs when mounting is allowed.

// diskFullWriter is the real writer on a disk that fills up: the
// failWrite-th WriteTemp (1-based) gets half its data written and then
// ENOSPC, cleaning up as OSWriter does; with failSync the flush reports
// ENOSPC (as delayed allocation can); with noLinks backups are copies.
type diskFullWriter struct {
	OSWriter
	failWrite, writes int
	failSync, noLinks bool
}

func (w *diskFullWriter) WriteTemp(dir, pattern string, data []byte, perm fs.FileMode) (string, error) {
	if w.writes++; w.writes != w.failWrite {
		return w.OSWriter.WriteTemp(dir, pattern, data, perm)
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	f.Write(data[:len(data)/2])
	f.Close()
	os.Remove(f.Name())
	return "", fmt.Errorf("write temporary file %s: %w", f.Name(), &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC})
}

func (w *diskFullWriter) Sync(names []string) error {
	if w.failSync {
		return fmt.Errorf("flush %s: %w", names[len(names)-1], syscall.ENOSPC)
	}
	return w.OSWriter.Sync(names)
}

func (w *diskFullWriter) Link(oldname, newname string) error {
	if w.noLinks {
		return &os.LinkError{Op: "link", Old: oldname, New: newname, Err: syscall.EXDEV}
	}
	return w.OSWriter.Link(oldname, newname)
}

// TestApplyDiskFull: with the disk full at each point of an apply of
// fourFiles (edit main.go, create pkg/deep/new.go, replace run.sh, delete
// old/gone.txt), every file and folder is exactly as before, no temporary
// or backup file is left, the error is ENOSPC and names the file, the set
// stays pending, and the same apply succeeds once there is room.
func TestApplyDiskFull(t *testing.T) {
	tests := []struct {
		name string
		w    *diskFullWriter
		file string // the file the error must name
		undo string // what the error says was undone
	}{
		{"2nd file's write (a new file in new folders)", &diskFullWriter{failWrite: 2}, "pkg/deep/new.go", "nothing had been written"},
		{"1st file's write", &diskFullWriter{failWrite: 1}, "main.go", "nothing had been written"},
		{"backup copy after main.go was placed", &diskFullWriter{failWrite: 5, noLinks: true}, "run.sh", "put back pkg/deep/new.go, main.go"},
		{"flush before any rename", &diskFullWriter{failSync: true}, "the new files", "nothing had been written"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, in := fourFiles(t)
			m := newManager(t, p)
			cs, err := m.Propose(diskReader(p), in)
			if err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, p)
			_, err = m.Apply(cs.ID, nil, diskReader(p), tt.w)
			if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "write "+tt.file+":") {
				t.Fatalf("apply: %v; want ENOSPC naming %s", err, tt.file)
			}
			if !strings.Contains(err.Error(), tt.undo+": every file is as it was") {
				t.Errorf("the error does not say the files are intact: %v", err)
			}
			sameTree(t, p, before) // byte for byte, modes, no .trestle-* files, no new folders
			if stored, _ := m.Get(cs.ID); stored.State != StatePending {
				t.Fatalf("state after a failed apply: %s", stored.State)
			}
			if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
				t.Fatalf("apply once there is room: %v", err)
			}
		})
	}
}

// TestApplyDiskFullTmpfs applies a change set that does not fit on a real
// 256 KiB tmpfs: the 2nd file's temporary write fails with ENOSPC and
// every file is left as it was. It needs root (mount); it is skipped when
// mounting is refused.
func TestApplyDiskFullTmpfs(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	files := map[string]string{"a.txt": "alpha\n", "b.txt": "bravo\n", "c.txt": strings.Repeat("c", 40<<10)}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := newManager(t, p) // the store lives outside the tmpfs
	cs, err := m.Propose(diskReader(p), Proposal{Title: "too big", Changes: []Change{
		{Path: "a.txt", Action: ActionReplace, Content: strings.Repeat("a", 100<<10)},
		{Path: "b.txt", Action: ActionReplace, Content: strings.Repeat("b", 200<<10)},
		{Path: "c.txt", Action: ActionDelete},
	}})
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, p)
	_, err = m.Apply(cs.ID, nil, diskReader(p), nil)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "write b.txt:") {
		t.Fatalf("apply: %v; want ENOSPC naming b.txt", err)
	}
	sameTree(t, p, before)
	t.Logf("apply on a full tmpfs: %v", err)
}

// TestApplyManyFilesDiskFullTmpfs is the disk-full case of an apply of
// parallelFrom files or more, whose temporary files are written and
// renamed into place from several goroutines: on a real 256 KiB tmpfs
// some of the writes fail with ENOSPC (which ones depends on the order
// they run in), and every file is left as it was, with nothing beside it.
// It needs root (mount); it is skipped when mounting is refused.
func TestApplyManyFilesDiskFullTmpfs(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	var changes []Change
	for i := range 2 * parallelFrom {
		name := fmt.Sprintf("d%d/f%d.txt", i%3, i)
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(fmt.Sprintf("file %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		changes = append(changes, Change{Path: name, Action: ActionReplace, Content: strings.Repeat(fmt.Sprint(i%10), 16<<10)})
	}
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := newManager(t, p) // the store lives outside the tmpfs
	cs, err := m.Propose(diskReader(p), Proposal{Title: "too big", Changes: changes})
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, p)
	_, err = m.Apply(cs.ID, nil, diskReader(p), nil)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "every file is as it was") {
		t.Fatalf("apply: %v; want ENOSPC and every file as it was", err)
	}
	sameTree(t, p, before)
	if got, _ := m.Get(cs.ID); got.State != StatePending {
		t.Fatalf("the set is %s after a failed apply, want pending", got.State)
	}
	t.Logf("apply of %d files on a full tmpfs: %v", len(changes), err)
}
