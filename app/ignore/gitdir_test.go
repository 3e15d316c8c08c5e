package ignore

import "testing"

func TestIsGitName(t *testing.T) {
	for name, want := range map[string]bool{
		".git": true, ".GIT": true, ".Git": true, ".git.": true, ".git ": true, ".git. .": true,
		".git::$INDEX_ALLOCATION": true, "GIT~1": true, "git~1": true,
		".github": false, ".gitignore": false, "git": false, ".gi": false, "x.git": false, "": false,
	} {
		if got := IsGitName(name); got != want {
			t.Errorf("IsGitName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestInGitDir(t *testing.T) {
	for rel, want := range map[string]bool{
		".git/config": true, "a/b/.GIT/HEAD": true, "sub/.git": true, ".github/ci.yml": false, "a/.gitignore": false, ".": false,
	} {
		if got := InGitDir(rel); got != want {
			t.Errorf("InGitDir(%q) = %v, want %v", rel, got, want)
		}
	}
}
