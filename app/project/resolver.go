package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Resolver resolves many paths of one project as Resolve does, for an
// operation that confines a whole set of files at once (an apply of 200
// files): it looks at the root once and at each folder once, where Resolve
// walks every component of every path (a file eight folders deep cost
// eight lstat calls). A folder it saw is a real folder (no symlink) inside
// the root for the rest of the operation, so a Resolver lives for one
// operation; what changes after its look is caught where the files are
// written (through an os.Root). Anything that is not a plain file or a
// missing one in folders it has seen (a symlink, a folder it cannot
// look at) it hands to Resolve, so its answers are Resolve's. Each call
// counts as one resolution (Resolutions). Not safe for concurrent use.
type Resolver struct {
	p      *Project
	rootOK int             // 0: not looked at; 1: Root is its own real path; -1: it is not
	dirs   map[string]bool // folders below Root seen to be real folders
}

// NewResolver returns a Resolver for one operation over p's files.
func (p *Project) NewResolver() *Resolver {
	return &Resolver{p: p, dirs: map[string]bool{}}
}

// Resolve is Project.Resolve of name.
func (r *Resolver) Resolve(name string) (Path, error) {
	cp, _, _, err := r.ResolveLstat(name)
	return cp, err
}

// ResolveLstat is Resolve, also returning what its own look at the
// resolved path found there (os.Lstat's answer: nil for a missing file),
// when it took one and nothing followed a symlink; known is false when it
// did not (ask os.Lstat). A caller that looks at the file anyway (an
// apply's check that it is still a regular file) is spared a second
// lstat of each file.
func (r *Resolver) ResolveLstat(name string) (cp Path, info fs.FileInfo, known bool, err error) {
	p := r.p
	joined, err := p.join(name)
	if err != nil || joined == p.Root || !r.realDir(filepath.Dir(joined)) {
		cp, err = p.Resolve(name)
		return cp, nil, false, err
	}
	info, err = os.Lstat(joined)
	if err != nil && !errors.Is(err, fs.ErrNotExist) || err == nil && info.Mode()&fs.ModeSymlink != 0 {
		cp, err = p.Resolve(name) // it follows the link, or says what went wrong
		return cp, nil, false, err
	}
	p.resolutions.Add(1)
	return Path{rel: p.Rel(joined), abs: joined, git: p.isGitAbs(joined)}, info, true, nil
}

// realDir reports whether dir, Root or a folder below it, is a real
// folder: Root its own real path, and every folder from Root down to dir
// neither a symlink nor anything but a folder.
func (r *Resolver) realDir(dir string) bool {
	if dir == r.p.Root {
		if r.rootOK == 0 {
			r.rootOK = -1
			if real, err := filepath.EvalSymlinks(r.p.Root); err == nil && real == r.p.Root {
				r.rootOK = 1
			}
		}
		return r.rootOK == 1
	}
	if r.dirs[dir] {
		return true
	}
	if !within(r.p.Root, dir) || !r.realDir(filepath.Dir(dir)) {
		return false
	}
	info, err := os.Lstat(dir)
	if err != nil || !info.IsDir() {
		return false
	}
	r.dirs[dir] = true
	return true
}
