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

// BenchmarkCompiledFirst is the first compiled input of a session on a
// project not built before (its packages and the generated main compile;
// the standard library comes from the build cache).
func BenchmarkCompiledFirst(b *testing.B) {
	code := "import \"example.com/iterdemo/internal/seq\"\nseq.Sum(seq.Count(10))"
	for b.Loop() {
		b.StopTimer()
		root := writeModule(b, iterFiles)
		s := New(Options{Root: root})
		b.StartTimer()
		res, err := s.Run(context.Background(), code, 20*time.Second)
		if err != nil || res.Value != "55" {
			b.Fatalf("%+v %v", res, err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}
