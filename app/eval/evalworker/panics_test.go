package evalworker

import "testing"

// TestSplitTraceKeepsWhatTheCodePrinted: the interpreter's trace lines
// leave the output whatever printed before them, with or without a
// newline, on any system's paths; a line of the code's that only looks
// like one (no position, no "(...)") stays.
func TestSplitTraceKeepsWhatTheCodePrinted(t *testing.T) {
	tests := []struct{ out, printed, trace string }{
		{"1:34: panic: main(...)\n", "", "1:34: panic: main(...)\n"},
		{"before\nno newline1:28: panic: main(...)\n", "before\nno newline", "1:28: panic: main(...)\n"},
		{"/tmp/e-1/gopath-1/src/example.com/p/p.go:4:35: panic: example.com/p.Third(...)\n2:1: panic: main(...)\n", "",
			"/tmp/e-1/gopath-1/src/example.com/p/p.go:4:35: panic: example.com/p.Third(...)\n2:1: panic: main(...)\n"},
		{`C:\Users\A B\gopath-1\src\example.com\p\p.go:6:15: panic: example.com/p.boom(...)` + "\nok\n", "ok\n",
			`C:\Users\A B\gopath-1\src\example.com\p\p.go:6:15: panic: example.com/p.boom(...)` + "\n"},
		{"panic: main(...)\nnote: panic: later\n", "panic: main(...)\nnote: panic: later\n", ""},
	}
	for _, tt := range tests {
		printed, trace := splitTrace(tt.out)
		if printed != tt.printed || trace != tt.trace {
			t.Errorf("splitTrace(%q) = %q, %q; want %q, %q", tt.out, printed, trace, tt.printed, tt.trace)
		}
	}
}
