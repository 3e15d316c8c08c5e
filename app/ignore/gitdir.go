package ignore

import "strings"

// IsGitName reports whether name, one path element, is git's own folder
// (or a .git file that points to one) on some file system: ".git" in any
// letter case (macOS and Windows fold case), with the trailing dots and
// spaces Windows drops or an NTFS stream suffix (".git::$INDEX_ALLOCATION"),
// or its Windows short name. Nothing reads, lists, searches or writes such
// a path for an agent.
func IsGitName(name string) bool {
	name, _, _ = strings.Cut(name, ":")
	return strings.EqualFold(strings.TrimRight(name, ". "), ".git") || strings.EqualFold(name, "git~1")
}

// InGitDir reports whether any element of rel (relative, slash-separated)
// is a git name.
func InGitDir(rel string) bool {
	for elem := range strings.SplitSeq(rel, "/") {
		if IsGitName(elem) {
			return true
		}
	}
	return false
}
