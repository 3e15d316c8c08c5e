package review

import (
	"strings"
	"testing"
	"time"

	"trestle/app/changeset"
)

// TestMetaTextCountsFiles: the line under a change set's title says
// "1 file", not "1 files".
func TestMetaTextCountsFiles(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files int
		want  string
	}{
		{"one", 1, " · 1 file, +0 −0"},
		{"two", 2, " · 2 files, +0 −0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := changeset.ChangeSet{ID: "cs-1", State: changeset.StatePending, Created: time.Now()}
			for range tt.files {
				cs.Files = append(cs.Files, changeset.FileChange{Path: "a.go", Action: changeset.ActionEdit})
			}
			if got := metaText(cs, time.Now()); !strings.HasSuffix(got, tt.want) {
				t.Errorf("metaText with %d files = %q, want it to end %q", tt.files, got, tt.want)
			}
		})
	}
}
