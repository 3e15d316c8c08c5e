package changeset

import "testing"

func TestEscapeControls(t *testing.T) {
	tests := []struct {
		name, in, keep, want string
	}{
		{"plain", "fix the typo", "", "fix the typo"},
		{"erase line and return", "// ok\x1b[2K\rrm -rf /", "\t", `// ok\x1b[2K\rrm -rf /`},
		{"newline forging a row", "title\ncs-9  applied", "", `title\ncs-9  applied`},
		{"newline kept", "a\nb", "\n", "a\nb"},
		{"tab kept", "a\tb", "\t", "a\tb"},
		{"bidi override", "evil\u202eog.txt", "", `evil\u202eog.txt`},
		{"C1 CSI", "x\u009b2K", "", `x\u009b2K`},
		{"not UTF-8", "a\xffb", "", `a\xffb`},
		{"non-ASCII letters stay", "größe 日本", "", "größe 日本"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EscapeControls(tt.in, tt.keep); got != tt.want {
				t.Errorf("EscapeControls(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMarkControls(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\tline", "plain\tline"},
		{"// ok\x1b[2K\rrm", "// ok␛[2K␍rm"},
		{"a\u202eb", "a⟦U+202E⟧b"},
		{"del\x7f", "del␡"},
	}
	for _, tt := range tests {
		if got := MarkControls(tt.in); got != tt.want {
			t.Errorf("MarkControls(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
