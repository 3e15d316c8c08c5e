package search

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestLiteralIndexMatchesBytesIndex checks the rare-byte search against the
// standard library on random data and patterns.
func TestLiteralIndexMatchesBytesIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("eetaN(.) \n\txyz")
	for range 5000 {
		data := make([]byte, r.IntN(200))
		for i := range data {
			data[i] = alphabet[r.IntN(len(alphabet))]
		}
		pat := make([]byte, 1+r.IntN(5))
		for i := range pat {
			pat[i] = alphabet[r.IntN(len(alphabet))]
		}
		if got, want := newLiteral(pat).index(data), bytes.Index(data, pat); got != want {
			t.Fatalf("index(%q, %q) = %d, want %d", data, pat, got, want)
		}
	}
}
