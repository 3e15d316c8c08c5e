package project

import (
	"strings"
	"testing"
)

// FuzzSliceLines: SliceLines is the lines start..end of SplitAfter's,
// joined (what it was before it sliced the text).
func FuzzSliceLines(f *testing.F) {
	for _, s := range []string{"", "\n", "a", "a\n", "a\nb", "a\nb\n", "\n\n\n", "1\n2\n3\n"} {
		f.Add(s, 0, 0)
		f.Add(s, 2, 3)
	}
	f.Fuzz(func(t *testing.T, text string, start, end int) {
		got, err := SliceLines(text, start, end)
		total := CountLines(text)
		from, to := max(start, 1), end
		if to == 0 || to > total {
			to = total
		}
		if from > total || to < from {
			if err == nil {
				t.Fatalf("SliceLines(%q, %d, %d) = %q, want an error", text, start, end, got)
			}
			return
		}
		if want := strings.Join(strings.SplitAfter(text, "\n")[from-1:to], ""); err != nil || got != want {
			t.Fatalf("SliceLines(%q, %d, %d) = %q, %v; want %q", text, start, end, got, err, want)
		}
	})
}
