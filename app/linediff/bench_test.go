package linediff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"trestle/internal/testfix"
)

// diffCases are the inputs of BenchmarkLineDiff and the bound tests:
// a 10,000-line file with 100 scattered one-line changes ("scattered"),
// the file rewritten with none of its lines kept ("rewritten"), and the
// worst case for Myers ("shuffled"), two
// unrelated 10,000-line texts drawn from a handful of common lines (as
// "}", "" and "\treturn nil" are in Go), so that most lines are shared
// but in no common order; and the file with its functions in another
// order ("reordered"), past the bound of the exact diff but anchored on
// the functions' own lines.
func diffCases() []struct{ name, base, new string } {
	lines := testfix.GoLines(10_000)
	base := strings.Join(lines, "")
	scattered, _ := testfix.Scatter(lines, 37, 99, 100)
	var rewritten strings.Builder
	for i := range lines {
		fmt.Fprintf(&rewritten, "\tnew code on line %d\n", i)
	}
	common := []string{"}\n", "\n", "\t}\n", "\treturn nil\n", "\t\treturn err\n", "\tif err != nil {\n"}
	rng := rand.New(rand.NewPCG(10, 10_000))
	shuffled := func() string {
		var b strings.Builder
		for range 10_000 {
			b.WriteString(common[rng.IntN(len(common))])
		}
		return b.String()
	}
	funcs := make([]string, 0, len(lines)/8)
	for i := 0; i < len(lines); i += 8 {
		funcs = append(funcs, strings.Join(lines[i:min(i+8, len(lines))], ""))
	}
	rng.Shuffle(len(funcs), func(i, j int) { funcs[i], funcs[j] = funcs[j], funcs[i] })
	return []struct{ name, base, new string }{
		{"scattered", base, scattered},
		{"rewritten", base, rewritten.String()},
		{"shuffled", shuffled(), shuffled()},
		{"reordered", base, strings.Join(funcs, "")},
	}
}

// BenchmarkLineDiff times Edits against go-udiff's
// (udiff.Lines, the baseline) on the same texts.
func BenchmarkLineDiff(b *testing.B) {
	for _, c := range diffCases() {
		b.Run(c.name+"/exact", func(b *testing.B) {
			for b.Loop() {
				Edits(c.base, c.new)
			}
		})
		b.Run(c.name+"/go-udiff", func(b *testing.B) {
			for b.Loop() {
				udiff.Lines(c.base, c.new)
			}
		})
	}
}
