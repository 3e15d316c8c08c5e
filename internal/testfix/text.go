package testfix

import (
	"fmt"
	"strings"
)

// GoLines is a generated Go file of n lines, each with its newline, like
// real code: many lines repeat ("}", "", "\treturn nil") and the rest
// differ. It is the large input of the line-diff tests.
func GoLines(n int) []string {
	lines := make([]string, 0, n)
	for i := 0; len(lines) < n; i++ {
		lines = append(lines,
			fmt.Sprintf("func f%d(x int) error {\n", i),
			fmt.Sprintf("\ty := x * %d\n", i),
			"\tif y < 0 {\n",
			"\t\treturn nil\n",
			"\t}\n",
			fmt.Sprintf("\treturn check(y, %d)\n", i),
			"}\n",
			"\n")
	}
	return lines[:n]
}

// Scatter changes every step-th line of lines (from the line at first),
// count times, by appending " // changed" to it, and returns the new text
// and the 1-based changed lines.
func Scatter(lines []string, first, step, count int) (string, []int) {
	out := append([]string(nil), lines...)
	var at []int
	for i := range count {
		k := first + i*step
		out[k] = strings.TrimSuffix(out[k], "\n") + " // changed\n"
		at = append(at, k+1)
	}
	return strings.Join(out, ""), at
}

// LCSLen is the length of a longest common subsequence of a and b, by
// the textbook dynamic programme: the reference a line diff's size is
// checked against.
func LCSLen(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
