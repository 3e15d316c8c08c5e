package compiled

import (
	"context"
	"testing"
	"time"
)

// BenchmarkCompiledWarm is one compiled input after the first: generate,
// go build (main package from the build cache when unchanged, link) and run.
func BenchmarkCompiledWarm(b *testing.B) {
	root := writeModule(b, iterFiles)
	s := New(Options{Root: root})
	defer s.Close()
	code := "import \"example.com/iterdemo/internal/seq\"\nseq.Sum(seq.Count(10))"
	if _, err := s.Run(context.Background(), code, 20*time.Second); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := s.Run(context.Background(), code, 20*time.Second)
		if err != nil || res.Value != "55" {
			b.Fatalf("%+v %v", res, err)
		}
	}
}
