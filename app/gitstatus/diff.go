package gitstatus

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"trestle/app/linediff"
)

// MaxHeadBytes bounds the HEAD version of a file read for a diff: the
// editor's own limit on what it opens.
const MaxHeadBytes = 8 << 20

// HeadText returns the text of the file at abs as HEAD has it, and false
// when HEAD has no such file (it is new, or there is no commit yet). It
// runs the hardened git of Command (repo.Trusted says whether the
// repository's configuration is used), bounded by Timeout.
func HeadText(ctx context.Context, repo Repository, abs string) (string, bool, error) {
	rel, err := filepath.Rel(repo.WorkTree, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", false, fmt.Errorf("%s is outside the repository at %s", abs, repo.WorkTree)
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	// The blob as stored: no --filters or --textconv, which would run
	// programs a config or .gitattributes names. Command runs in the work
	// tree's root, so the path is from there.
	cmd, err := Command(ctx, repo, "cat-file", "-p", "HEAD:"+filepath.ToSlash(rel))
	if err != nil {
		return "", false, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	switch {
	case ctx.Err() != nil:
		return "", false, fmt.Errorf("git cat-file of %s took longer than %s", rel, Timeout)
	case err != nil:
		msg := stderr.String()
		if strings.Contains(msg, "does not exist") || strings.Contains(msg, "invalid object name") ||
			strings.Contains(msg, "not a valid object name") || strings.Contains(msg, "exists on disk, but not in") {
			return "", false, nil
		}
		return "", false, fmt.Errorf("git cat-file of %s: %v: %s", rel, err, strings.TrimSpace(msg))
	case len(out) > MaxHeadBytes:
		return "", false, fmt.Errorf("%s is larger than %d MiB at HEAD", rel, MaxHeadBytes>>20)
	}
	return string(out), true, nil
}

// Change is how a line of the current text differs from HEAD, for the
// editor's gutter.
type Change int

const (
	Added    Change = iota + 1 // a line HEAD does not have
	Modified                   // a line in place of one of HEAD's
	Deleted                    // HEAD had lines here, just above this one, that are gone
)

// LineChanges maps each changed line of now (0-based) to how it changed
// from head. Lines deleted at the end of the text mark the last line.
// The diff is linediff's (exact, bounded), the one change-set hunks use.
// It is plain computation, safe for concurrent use.
func LineChanges(head, now string) map[int]Change {
	out := map[int]Change{}
	u, err := udiff.ToUnifiedDiff("a", "b", head, linediff.Edits(head, now), 0)
	if err != nil {
		return out
	}
	last := max(strings.Count(now, "\n")-1, 0)
	if now != "" && !strings.HasSuffix(now, "\n") {
		last = strings.Count(now, "\n")
	}
	for _, h := range u.Hunks {
		line := h.ToLine - 1 // 0-based line of now
		deleted := 0
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Delete:
				deleted++
			case udiff.Insert:
				if deleted > 0 {
					out[line] = Modified
					deleted--
				} else {
					out[line] = Added
				}
				line++
			case udiff.Equal:
				if deleted > 0 {
					markDeleted(out, line, last)
				}
				deleted = 0
				line++
			}
		}
		if deleted > 0 {
			markDeleted(out, line, last)
		}
	}
	return out
}

func markDeleted(out map[int]Change, line, last int) {
	line = min(line, last)
	if _, ok := out[line]; !ok {
		out[line] = Deleted
	}
}
