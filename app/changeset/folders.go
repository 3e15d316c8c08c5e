package changeset

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// foldersOpened counts the folders transactions have opened, so a test can
// check each is opened once.
var foldersOpened atomic.Int64

// folders is the cache of one transaction's folders: each folder of the
// project a transaction touches is opened once, as an os.Root inside the
// project's (so it is confined as the project's is: a folder outside the
// project, or reached through a symlink out, is refused), and every
// operation on a file in it then names the file alone. Through the
// project's os.Root alone each operation on "pkg/file.go" opened and
// closed "pkg" first: for a 200-file apply that was about 1800 opens and
// closes. Like any os.Root, a cached folder follows its folder if it is
// moved or removed meanwhile: a folder removed and replaced by a symlink
// after it was opened makes every write there fail (a removed folder takes
// no new files) rather than land where the symlink leads. It is safe for
// concurrent use; close closes every folder it opened.
type folders struct {
	top  *os.Root // the project folder
	mu   sync.Mutex
	open map[string]*folder // by project-relative folder name
}

// folder is one open folder of a transaction.
type folder struct {
	root *os.Root
	dir  *os.File // the folder itself, for createIn; nil until one asks
}

// newFolders caches the folders under top, or returns nil where holding a
// folder open would keep it from being removed (Windows): there every
// operation goes through top.
func newFolders(top *os.Root) *folders {
	if !holdFolders {
		return nil
	}
	return &folders{top: top, open: map[string]*folder{}}
}

// lookup returns the os.Root to reach the project-relative name through
// and name relative to it: the cached root of name's folder and its last
// component, or, when that folder cannot be opened (missing, outside, a
// file), the project's root and name unchanged, which then gives the
// operation's own error.
func (c *folders) lookup(rel string) (*os.Root, string) {
	dir, base := filepath.Dir(rel), filepath.Base(rel)
	if rel == "." || dir == "." {
		return c.top, rel
	}
	f, err := c.folder(dir)
	if err != nil {
		return c.top, rel
	}
	return f.root, base
}

// lookupBoth is lookup for two names: through their folder when they
// share one, else through the project's root.
func (c *folders) lookupBoth(a, b string) (*os.Root, string, string) {
	if filepath.Dir(a) == filepath.Dir(b) {
		if r, base := c.lookup(a); r != c.top {
			return r, base, filepath.Base(b)
		}
	}
	return c.top, a, b
}

// folder returns the open folder dir (project-relative), opening it the
// first time.
func (c *folders) folder(dir string) (*folder, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.open[dir]; ok {
		return f, nil
	}
	r, err := c.top.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	foldersOpened.Add(1)
	f := &folder{root: r}
	c.open[dir] = f
	return f, nil
}

// dirFile returns dir (project-relative; "." for the project folder)
// opened as a file, for createIn, opening it the first time.
func (c *folders) dirFile(dir string) (*os.File, error) {
	r := c.top
	var f *folder
	if dir != "." {
		var err error
		if f, err = c.folder(dir); err != nil {
			return nil, err
		}
		r = f.root
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f == nil {
		f = c.open["."]
		if f == nil {
			f = &folder{}
			c.open["."] = f
		}
	}
	if f.dir == nil {
		d, err := r.Open(".")
		if err != nil {
			return nil, err
		}
		f.dir = d
	}
	return f.dir, nil
}

// close closes every folder opened.
func (c *folders) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.open {
		if f.root != nil {
			f.root.Close()
		}
		if f.dir != nil {
			f.dir.Close()
		}
	}
	clear(c.open)
}
