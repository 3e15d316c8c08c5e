package gitstatus

import (
	"context"
	"testing"
)

// BenchmarkRead is a git status of this repository, trusted and untrusted
// (untrusted lists the settings first, to turn them off).
func BenchmarkRead(b *testing.B) {
	for _, trusted := range []bool{true, false} {
		name := "untrusted"
		if trusted {
			name = "trusted"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, ok, err := Read(context.Background(), "../..", trusted); !ok || err != nil {
					b.Fatalf("status: %v %v", ok, err)
				}
			}
		})
	}
}
