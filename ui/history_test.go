package ui

import "testing"

func TestHistoryWalksLikeAShell(t *testing.T) {
	var h history
	if got := h.prev("typing"); got != "typing" {
		t.Fatalf("empty history prev = %q", got)
	}
	h.add("a")
	h.add("b")
	h.add("b") // a repeat is not stored twice
	h.add("")
	steps := []struct {
		name string
		do   func() string
		want string
	}{
		{"up once", func() string { return h.prev("draft") }, "b"},
		{"up twice", func() string { return h.prev("b") }, "a"},
		{"up at the top stays", func() string { return h.prev("a") }, "a"},
		{"down", h.next, "b"},
		{"down past the end gives the draft", h.next, "draft"},
		{"down again stays", h.next, "draft"},
	}
	for _, s := range steps {
		if got := s.do(); got != s.want {
			t.Fatalf("%s: got %q, want %q", s.name, got, s.want)
		}
	}
	for i := range maxHistory + 10 {
		h.add(string(rune('a'+i%26)) + string(rune('0'+i%10)) + string(rune(i)))
	}
	if len(h.items) != maxHistory {
		t.Fatalf("kept %d, want %d", len(h.items), maxHistory)
	}
}
