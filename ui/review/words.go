package review

import "unicode"

// maxWordTokens bounds the tokens of a line the word diff compares: the
// comparison is quadratic, and a longer line is tinted whole.
const maxWordTokens = 400

// span is a run of rune columns [start, end) of one line.
type span struct{ start, end int }

// wordDiff returns the runs of old and new, in rune columns, that differ
// between the two versions of a changed line, compared word by word (a
// word is a run of letters, digits and underscores, a run of spaces, or
// one other character). Lines too long to compare, or too unlike for the
// runs to help (less than a third in common), give no runs: the line's
// tint says enough. Plain logic, safe on any goroutine.
func wordDiff(old, new string) (oldRuns, newRuns []span) {
	a, b := tokens(old), tokens(new)
	if len(a) > maxWordTokens || len(b) > maxWordTokens {
		return nil, nil
	}
	keepA, keepB, common := lcs(a, b)
	if 3*common < max(runeLen(a), runeLen(b)) {
		return nil, nil
	}
	return changedRuns(a, keepA), changedRuns(b, keepB)
}

// token is one word of a line and the rune column it starts at.
type token struct {
	text  string
	start int
	n     int // runes
}

func tokens(s string) []token {
	var out []token
	col, start := 0, 0
	runes := []rune(s)
	for i := 0; i < len(runes); {
		start = i
		class := runeClass(runes[i])
		i++
		for class != 2 && i < len(runes) && runeClass(runes[i]) == class {
			i++
		}
		out = append(out, token{text: string(runes[start:i]), start: col, n: i - start})
		col += i - start
	}
	return out
}

// runeClass is 0 for a word rune, 1 for a space, 2 for anything else
// (each its own token).
func runeClass(r rune) int {
	switch {
	case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
		return 0
	case unicode.IsSpace(r):
		return 1
	}
	return 2
}

func runeLen(ts []token) int {
	n := 0
	for _, t := range ts {
		n += t.n
	}
	return n
}

// lcs marks the tokens of a and b in a longest common subsequence and
// returns how many runes it holds.
func lcs(a, b []token) (keepA, keepB []bool, common int) {
	// dp[i][j] is the LCS length (in runes) of a[i:] and b[j:].
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			switch {
			case a[i].text == b[j].text:
				dp[i][j] = dp[i+1][j+1] + a[i].n
			case dp[i+1][j] >= dp[i][j+1]:
				dp[i][j] = dp[i+1][j]
			default:
				dp[i][j] = dp[i][j+1]
			}
		}
	}
	keepA, keepB = make([]bool, len(a)), make([]bool, len(b))
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].text == b[j].text && dp[i][j] == dp[i+1][j+1]+a[i].n:
			keepA[i], keepB[j] = true, true
			i, j = i+1, j+1
		case dp[i+1][j] >= dp[i][j+1]:
			i++
		default:
			j++
		}
	}
	return keepA, keepB, dp[0][0]
}

// changedRuns joins the tokens not kept into runs of columns.
func changedRuns(ts []token, keep []bool) []span {
	var out []span
	for i, t := range ts {
		if keep[i] {
			continue
		}
		if n := len(out); n > 0 && out[n-1].end == t.start {
			out[n-1].end = t.start + t.n
			continue
		}
		out = append(out, span{t.start, t.start + t.n})
	}
	return out
}
