package changeset

import (
	"errors"
	"fmt"
	"os"

	"trestle/app/errdefs"
	"trestle/app/project"
)

// oldsInJournalMax bounds the old texts an apply keeps in its journal: a
// bigger set keeps its old files as backup files (hard links), which cost
// two system calls a file but write nothing.
const oldsInJournalMax = 16 << 20

// fileCheck is one file compare looks at: what the set expects there, and
// what compare found.
type fileCheck struct {
	path   string
	exists bool   // the set expects the file to exist
	sum    string // with this hash
	cp     project.Path
	detail string // what differs; "" when the file is as expected
	text   string // what current read, when it is as expected
	err    error
}

// compareAll is compare of every check: the paths are confined one after
// another (through one Resolver, which looks at each folder once), then
// the files are read and hashed from several goroutines at once when
// there are many (current must be safe for concurrent use). A 200-file
// apply read and hashed its files one after another in about a quarter
// of its whole time on tmpfs.
func (m *Manager) compareAll(checks []fileCheck, current summedRead) {
	r := m.project.NewResolver()
	for i := range checks {
		checks[i].cp, checks[i].detail = confine(r, checks[i].path)
	}
	read := func(i int) {
		if c := &checks[i]; c.detail == "" {
			c.text, c.detail, c.err = compareText(c.cp, c.exists, c.sum, current)
		}
	}
	if len(checks) < parallelFrom {
		for i := range checks {
			read(i)
		}
		return
	}
	inParallel(len(checks), read)
}

// compare confines path through r (one Resolver for the whole apply,
// revert or undo, so each folder is looked at once) and returns it with ""
// when the file is as expected (existing with hash sum, or missing), else
// with what differs. The path must still resolve to itself.
func (m *Manager) compare(r *project.Resolver, path string, exists bool, sum string, current ReadFunc) (project.Path, string, error) {
	cp, detail := confine(r, path)
	if detail != "" {
		return cp, detail, nil
	}
	var err error
	_, detail, err = compareText(cp, exists, sum, summed(current))
	return cp, detail, err
}

// confine resolves path through r for compare: the zero Path and what is
// wrong when it no longer resolves to itself or is there but is no
// regular file.
func confine(r *project.Resolver, path string) (project.Path, string) {
	cp, info, known, err := r.ResolveLstat(path)
	if err != nil || cp.Rel() != path {
		return project.Path{}, path + " now leads elsewhere (a symlink or a folder changed)"
	}
	if !known { // the Resolver did not look at the file itself
		info, _ = os.Lstat(cp.Abs())
	}
	if what := notAFileInfo(cp.Abs(), info); what != "" {
		return project.Path{}, path + " changed: " + what
	}
	return cp, ""
}

// compareText reads cp through current and says what differs from what is
// expected ("" for nothing), with the text it read.
func compareText(cp project.Path, exists bool, sum string, current summedRead) (string, string, error) {
	path := cp.Rel()
	text, now, textSum, err := current(cp)
	if err != nil {
		return "", "", fmt.Errorf("read %s: %w", path, err)
	}
	switch {
	case exists && !now:
		return "", path + " was deleted", nil
	case !exists && now:
		return "", path + " now exists", nil
	case exists && textSum() != sum:
		return "", path + " was changed", nil
	}
	return text, "", nil
}

// summedRead is a ReadFunc that also gives the text's hash (hashText),
// computed when asked.
type summedRead func(project.Path) (text string, exists bool, sum func() string, err error)

// summed is current as a summedRead, hashing the text it reads.
func summed(current ReadFunc) summedRead {
	return func(cp project.Path) (string, bool, func() string, error) {
		text, exists, err := current(cp)
		return text, exists, func() string { return hashText(text) }, err
	}
}

// diskSummed reads cp from disk with the hash the read computed: each
// file of an apply that reads the disk is hashed once, not twice.
func (m *Manager) diskSummed(cp project.Path) (string, bool, func() string, error) {
	ft, err := m.project.Read(cp)
	if errors.Is(err, errdefs.ErrNotFound) {
		return "", false, nil, nil
	}
	if err != nil {
		return "", false, nil, err
	}
	return ft.Text, true, func() string { return ft.SHA256 }, nil
}
