package review

import (
	"fmt"
	"testing"
)

func TestWordDiff(t *testing.T) {
	tests := []struct {
		name, old, new string
		wantOld        string
		wantNew        string
	}{
		{"one word", `	fmt.Println("hi")`, `	fmt.Println("hello")`, "[{14 16}]", "[{14 19}]"},
		{"added argument", "f(a)", "f(a, b)", "[]", "[{3 6}]"},
		{"unlike", "return nil", "panic(everything went wrong)", "[]", "[]"},
		{"identical", "x := 1", "x := 1", "[]", "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, n := wordDiff(tt.old, tt.new)
			if got := fmt.Sprint(o); got != tt.wantOld && !(got == "[]" && tt.wantOld == "[]") {
				t.Errorf("old runs %v, want %s", o, tt.wantOld)
			}
			if got := fmt.Sprint(n); got != tt.wantNew {
				t.Errorf("new runs %v, want %s", n, tt.wantNew)
			}
		})
	}
}
