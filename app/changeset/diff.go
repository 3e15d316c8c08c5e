package changeset

import "github.com/aymanbagabas/go-udiff"

// DiffContextLines is the unchanged lines shown around each change, as git does.
const DiffContextLines = 3

// Diff returns the unified diff of fc from its base to its new content,
// labelled a/PATH and b/PATH (/dev/null for a created or deleted file), or
// "" when they are equal. It is safe for concurrent use.
func Diff(fc FileChange) string {
	from, to := "a/"+fc.Path, "b/"+fc.Path
	if !fc.BaseExists {
		from = "/dev/null"
	}
	if fc.Action == ActionDelete {
		to = "/dev/null"
	}
	u, err := udiff.ToUnifiedDiff(from, to, fc.Base, udiff.Lines(fc.Base, fc.New), DiffContextLines)
	if err != nil {
		return "" // cannot happen: the edits come from the same texts
	}
	if len(u.Hunks) == 0 {
		return ""
	}
	return u.String()
}
