package changeset

import (
	"fmt"
	"sort"
	"strings"
)

// span is where one edit's old_text sits in the base.
type span struct {
	start, end int
	edit       int // index in the edits
}

// applyEdits replaces each edit's OldText, which must occur exactly once in
// base, by its NewText. Edits are located in the base, not in each other's
// results, and must not overlap.
func applyEdits(rel, base string, edits []Edit) (string, error) {
	spans := make([]span, 0, len(edits))
	for i, e := range edits {
		s, err := locate(rel, base, e.OldText, i, len(edits))
		if err != nil {
			return "", err
		}
		spans = append(spans, s)
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	b.Grow(len(base))
	at := 0
	for i, s := range spans {
		if i > 0 && s.start < spans[i-1].end {
			return "", invalid("edits %d and %d overlap in %s; merge them into one", spans[i-1].edit+1, s.edit+1, rel)
		}
		b.WriteString(base[at:s.start])
		b.WriteString(edits[s.edit].NewText)
		at = s.end
	}
	b.WriteString(base[at:])
	return b.String(), nil
}

// locate finds old, which must occur exactly once in base.
func locate(rel, base, old string, i, n int) (span, error) {
	which := "old_text"
	if n > 1 {
		which = fmt.Sprintf("old_text of edit %d", i+1)
	}
	if old == "" {
		return span{}, invalid("%s for %s is empty", which, rel)
	}
	first, count := occurrences(base, old)
	if count != 1 {
		return span{}, invalid("%s occurs %d times in %s: %q", which, count, rel, firstLine(old))
	}
	return span{start: first, end: first + len(old), edit: i}, nil
}

// occurrences returns where old first occurs in s and how many times it
// occurs, overlapping ones included ("aa" occurs twice in "aaa").
func occurrences(s, old string) (first, count int) {
	first = strings.Index(s, old)
	if first < 0 {
		return -1, 0
	}
	for at := first; at >= 0; {
		count++
		next := strings.Index(s[at+1:], old)
		if next < 0 {
			break
		}
		at += 1 + next
	}
	return first, count
}
