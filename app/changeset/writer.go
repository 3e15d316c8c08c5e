package changeset

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"trestle/app/errdefs"
)

// Writer is how Apply and Revert change the file system, and read what a
// transaction reads of it. OSWriter is the real one; tests wrap it to make
// a chosen call fail. A Writer is used by one apply at a time, from one
// goroutine.
type Writer interface {
	// WriteTemp writes data to a new file in dir named after pattern (as
	// os.CreateTemp), with permission bits perm, and returns its path. The
	// data need not be on disk until Sync. It must not write to data (an
	// apply passes its texts' own bytes) nor keep it.
	WriteTemp(dir, pattern string, data []byte, perm fs.FileMode) (string, error)
	// Sync flushes the named files to stable storage, so a power cut after
	// a rename cannot leave an empty file.
	Sync(names []string) error
	// Link makes newname a hard link to oldname.
	Link(oldname, newname string) error
	// Rename renames oldpath to newpath, replacing newpath atomically.
	Rename(oldpath, newpath string) error
	// Remove removes a file or an empty folder.
	Remove(name string) error
	// Mkdir creates one folder.
	Mkdir(name string, perm fs.FileMode) error
	// Lstat describes name without following a last symlink.
	Lstat(name string) (fs.FileInfo, error)
	// ReadFile returns the content of name.
	ReadFile(name string) ([]byte, error)
}

// OSWriter is the Writer on the real file system. With Root set, every
// name must lie inside Root and is reached through an os.Root, so a folder
// swapped for a symlink out of Root between an apply's checks and its
// writes makes the write (or read) fail instead of landing outside; Apply
// and Revert use it so, with Root opened once for the whole transaction
// (see txnWriter). It is safe for concurrent use.
type OSWriter struct {
	Root string   // "" for no confinement
	root *os.Root // Root, opened for one transaction; nil: each call opens it
	dirs *folders // the transaction's folders, opened once each; nil: each call goes through root
}

// rootsOpened counts the os.Roots OSWriters have opened, so a test can
// check a transaction opens one.
var rootsOpened atomic.Int64

// txnWriter returns the writer of one transaction over the project at
// root: w, or OSWriter{Root: root} when w is nil. An OSWriter gets its
// Root opened once here, so every read and write of the transaction goes
// through that one os.Root; done closes it.
func txnWriter(w Writer, root string) (tw Writer, done func(), err error) {
	if w == nil {
		w = OSWriter{Root: root}
	}
	ow, ok := w.(OSWriter)
	if !ok || ow.Root == "" || ow.root != nil {
		return w, func() {}, nil
	}
	if ow.root, err = os.OpenRoot(ow.Root); err != nil {
		return nil, nil, fmt.Errorf("open the project folder %s: %w", ow.Root, err)
	}
	rootsOpened.Add(1)
	ow.dirs = newFolders(ow.root)
	return ow, func() { ow.dirs.close(); ow.root.Close() }, nil
}

// rel returns name relative to Root, refusing a name outside it.
func (w OSWriter) rel(name string) (string, error) {
	if rest, ok := strings.CutPrefix(name, w.Root); ok && filepath.Separator == '/' && len(rest) > 1 && rest[0] == '/' && cleanLocal(rest[1:]) {
		return rest[1:], nil // what filepath.Rel says of it, without its two Cleans: an apply asks this 6-8 times a file
	}
	rel, err := filepath.Rel(w.Root, name)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", fmt.Errorf("%s is outside %s: %w", name, w.Root, errdefs.ErrOutside)
	}
	return rel, nil
}

// open returns the os.Root of Root and name relative to it, or a nil
// *os.Root and name unchanged when there is no Root. The caller calls
// done when it is through with the root.
func (w OSWriter) open(name string) (r *os.Root, rel string, done func(), err error) {
	if w.Root == "" {
		return nil, name, func() {}, nil
	}
	if rel, err = w.rel(name); err != nil {
		return nil, "", nil, err
	}
	if w.dirs != nil {
		r, rel = w.dirs.lookup(rel)
		return r, rel, func() {}, nil
	}
	if w.root != nil {
		return w.root, rel, func() {}, nil
	}
	if r, err = os.OpenRoot(w.Root); err != nil {
		return nil, "", nil, err
	}
	rootsOpened.Add(1)
	return r, rel, func() { r.Close() }, nil
}

// WriteTemp implements Writer.
func (w OSWriter) WriteTemp(dir, pattern string, data []byte, perm fs.FileMode) (string, error) {
	if name, ok, err := w.writeTempHeld(dir, pattern, data, perm); ok {
		return name, err
	}
	r, rel, done, err := w.open(dir)
	if err != nil {
		return "", fmt.Errorf("write temporary file in %s: %w", dir, err)
	}
	defer done()
	var f *os.File
	if r == nil {
		f, err = os.CreateTemp(dir, pattern)
	} else {
		f, err = createTempIn(r, rel, pattern)
	}
	if err != nil {
		return "", err
	}
	name := filepath.Join(dir, filepath.Base(f.Name()))
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		w.Remove(name)
		return "", fmt.Errorf("write temporary file %s: %w", name, err)
	}
	return name, nil
}

// writeTempHeld is WriteTemp in a folder of the transaction's (see
// folders), with createIn; false when there are none or dir cannot be
// opened (WriteTemp then goes through the project's root and says why).
func (w OSWriter) writeTempHeld(dir, pattern string, data []byte, perm fs.FileMode) (string, bool, error) {
	if w.dirs == nil {
		return "", false, nil
	}
	rel, err := w.rel(dir)
	if err != nil {
		return "", false, nil
	}
	d, err := w.dirs.dirFile(rel)
	if err != nil {
		return "", false, nil
	}
	for range 100 {
		name := tempName(pattern)
		err := createIn(d, name, data, perm)
		if err == nil {
			return filepath.Join(dir, name), true, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			w.Remove(filepath.Join(dir, name))
			return "", true, fmt.Errorf("write temporary file in %s: %w", dir, err)
		}
	}
	return "", true, fmt.Errorf("create a temporary file in %s: every name tried exists", dir)
}

// one runs a one-name operation: plain on name when there is no Root,
// else rooted on name relative to Root.
func one[T any](w OSWriter, name string, plain func(string) (T, error), rooted func(*os.Root, string) (T, error)) (T, error) {
	r, rel, done, err := w.open(name)
	if err != nil {
		var zero T
		return zero, err
	}
	defer done()
	if r == nil {
		return plain(name)
	}
	return rooted(r, rel)
}

// Lstat implements Writer.
func (w OSWriter) Lstat(name string) (fs.FileInfo, error) {
	return one(w, name, os.Lstat, (*os.Root).Lstat)
}

// ReadFile implements Writer.
func (w OSWriter) ReadFile(name string) ([]byte, error) {
	return one(w, name, os.ReadFile, (*os.Root).ReadFile)
}

// cleanLocal reports whether rel is a clean relative path of names
// below its start: not empty, and no component empty, "." or "..".
func cleanLocal(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return rel != ""
}

// ReadDir lists the folder name, sorted by name, for a recovery and for
// an apply's look for git metadata. Inside Root the entries learn their
// type only when asked (one lstat then): a folder opened through an
// os.Root lstats every entry as it is listed, and an apply lists each
// folder it writes in only to find a HEAD among the names.
func (w OSWriter) ReadDir(name string) ([]fs.DirEntry, error) {
	return one(w, name, os.ReadDir, func(r *os.Root, rel string) ([]fs.DirEntry, error) {
		d, err := r.Open(rel)
		if err != nil {
			return nil, err
		}
		defer d.Close()
		names, err := d.Readdirnames(-1)
		slices.Sort(names)
		entries := make([]fs.DirEntry, len(names))
		for i, n := range names {
			entries[i] = lazyEntry{name: n, lstat: func() (fs.FileInfo, error) { return r.Lstat(filepath.Join(rel, n)) }}
		}
		return entries, err
	})
}

// lazyEntry is a folder entry that lstats its file when its type or
// information is asked for (see ReadDir). One whose file is gone by then
// is irregular, with no permission bits.
type lazyEntry struct {
	name  string
	lstat func() (fs.FileInfo, error)
}

func (e lazyEntry) Name() string               { return e.name }
func (e lazyEntry) IsDir() bool                { return e.Type().IsDir() }
func (e lazyEntry) Info() (fs.FileInfo, error) { return e.lstat() }
func (e lazyEntry) Type() fs.FileMode {
	info, err := e.lstat()
	if err != nil {
		return fs.ModeIrregular
	}
	return info.Mode().Type()
}

// createTempIn is os.CreateTemp inside r: a new file in dir named after
// pattern, its last "*" replaced by a random string.
func createTempIn(r *os.Root, dir, pattern string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, tempName(pattern))
		f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("create a temporary file in %s: every name tried exists", dir)
}

// tempName is pattern with its last "*" replaced by a random string.
func tempName(pattern string) string {
	prefix, suffix := pattern, ""
	if i := strings.LastIndex(pattern, "*"); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	var b [8]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:]) + suffix
}

// syncWorkers is how many files OSWriter.Sync flushes at once: the file
// system commits concurrent flushes together, which makes 200 files about
// five times faster than one after another, and 32 stays well below any
// open-file limit.
const syncWorkers = 32

// Sync implements Writer. For many files it flushes their file system once
// (syncfs: measured 310 -> 170 ms for a 200-file apply on this VM's disk);
// otherwise, or when that fails, it flushes up to syncWorkers files at once.
func (w OSWriter) Sync(names []string) error {
	if len(names) >= syncfsFrom {
		if err := syncFS(names[0]); err == nil {
			return nil
		}
	}
	errs := make([]error, len(names))
	inParallel(len(names), func(i int) { errs[i] = w.syncFile(names[i]) })
	return errors.Join(errs...)
}

// inParallel calls fn(0..n-1) from up to syncWorkers goroutines and
// returns when every call has. Each goroutine takes the next index from a
// shared counter rather than from a channel: a handoff through an
// unbuffered channel parks and wakes a goroutine per item, which on tmpfs
// (where no call waits on a disk) was most of the scheduling cost of a
// 200-file apply (strace: 438 nanosleep and 260 futex calls).
func inParallel(n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(syncWorkers, n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				fn(i)
			}
		})
	}
	wg.Wait()
}

func (w OSWriter) syncFile(name string) error {
	var f *os.File
	r, rel, done, err := w.open(name)
	if err == nil && r == nil {
		f, err = os.Open(name)
	} else if err == nil {
		f, err = r.Open(rel)
		done()
	}
	if err != nil {
		return err
	}
	err = f.Sync()
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return fmt.Errorf("flush %s: %w", name, err)
	}
	return nil
}

// Link implements Writer.
func (w OSWriter) Link(oldname, newname string) error {
	return w.two(oldname, newname, os.Link, (*os.Root).Link)
}

// Rename implements Writer.
func (w OSWriter) Rename(oldpath, newpath string) error {
	if ok, err := w.renameHeld(oldpath, newpath); ok {
		return err
	}
	return w.two(oldpath, newpath, os.Rename, (*os.Root).Rename)
}

// renameHeld renames a file to another name in the same folder of the
// transaction's (see folders) with one renameat on the folder itself;
// false when there are no held folders or the names are in different
// ones. os.Root.Rename also lstats the new name first, to refuse putting
// a folder in a folder's place, which every rename of an apply (a file
// over a file) paid once per file; renameat itself refuses a file over a
// folder (EISDIR).
func (w OSWriter) renameHeld(a, b string) (bool, error) {
	if w.dirs == nil {
		return false, nil
	}
	relA, errA := w.rel(a)
	relB, errB := w.rel(b)
	if errA != nil || errB != nil || filepath.Dir(relA) != filepath.Dir(relB) {
		return false, nil
	}
	d, err := w.dirs.dirFile(filepath.Dir(relA))
	if err != nil {
		return false, nil
	}
	return true, renameIn(d, filepath.Base(relA), filepath.Base(relB))
}

// two runs a two-name operation, inside Root when there is one.
func (w OSWriter) two(a, b string, plain func(a, b string) error, inRoot func(r *os.Root, a, b string) error) error {
	if w.Root == "" {
		return plain(a, b)
	}
	relA, err := w.rel(a)
	if err != nil {
		return err
	}
	relB, err := w.rel(b)
	if err != nil {
		return err
	}
	if w.dirs != nil {
		r, x, y := w.dirs.lookupBoth(relA, relB)
		return inRoot(r, x, y)
	}
	r, _, done, err := w.open(a)
	if err != nil {
		return err
	}
	defer done()
	return inRoot(r, relA, relB)
}

// Remove implements Writer.
func (w OSWriter) Remove(name string) error {
	_, err := one(w, name, noValue(os.Remove), noValueIn((*os.Root).Remove))
	return err
}

// Mkdir implements Writer.
func (w OSWriter) Mkdir(name string, perm fs.FileMode) error {
	_, err := one(w, name, noValue(func(name string) error { return os.Mkdir(name, perm) }),
		noValueIn(func(r *os.Root, rel string) error { return r.Mkdir(rel, perm) }))
	return err
}

// noValue and noValueIn fit an operation that returns only an error to one.
func noValue(f func(string) error) func(string) (struct{}, error) {
	return func(name string) (struct{}, error) { return struct{}{}, f(name) }
}

func noValueIn(f func(*os.Root, string) error) func(*os.Root, string) (struct{}, error) {
	return func(r *os.Root, rel string) (struct{}, error) { return struct{}{}, f(r, rel) }
}
