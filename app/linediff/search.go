package linediff

import (
	"math"
	"slices"
)

// increasing is the longest subsequence of pairs (in increasing first
// order, with distinct seconds) whose seconds increase too: patience
// sorting, in time k·log k for k pairs.
func increasing(pairs [][2]int) [][2]int {
	if len(pairs) == 0 {
		return nil
	}
	var tops []int                  // tops[l]: the index in pairs ending the best run of length l+1
	prev := make([]int, len(pairs)) // the pair before each in its run
	for k, p := range pairs {
		l, _ := slices.BinarySearchFunc(tops, p[1], func(t int, j int) int { return pairs[t][1] - j })
		if l > 0 {
			prev[k] = tops[l-1]
		} else {
			prev[k] = -1
		}
		if l == len(tops) {
			tops = append(tops, k)
		} else {
			tops[l] = k
		}
	}
	out := make([][2]int, len(tops))
	for k, l := tops[len(tops)-1], len(tops)-1; l >= 0; k, l = prev[k], l-1 {
		out[l] = pairs[k]
	}
	return out
}

// myersWithin reports whether Myers' greedy forward search finds the
// distance from a to b within work steps (a step is a diagonal tried or
// a line compared): it takes about as many as the diff itself, which
// bisects the same graph from both ends, and stops at the bound. It
// counts steps, not time, so the answer is the same on any machine.
func myersWithin(a, b []rune, work int) bool {
	_, ok := myersSteps(a, b, work)
	return ok
}

// myersSteps is myersWithin with the steps it took.
func myersSteps(a, b []rune, work int) (int, bool) {
	n, m := len(a), len(b)
	// Round d tries d+1 diagonals, so the bound is spent by round
	// sqrt(2·work).
	off := min(n+m, int(math.Sqrt(2*float64(max(work, 0))))+2) + 1
	v := make([]int, 2*off+1) // furthest x on each diagonal k = x-y
	left := work
	for d := 0; d <= n+m; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
				left--
			}
			v[off+k] = x
			if x >= n && y >= m {
				return work - left, true
			}
			if left--; left < 0 {
				return work - left, false
			}
		}
	}
	return work - left, true
}
