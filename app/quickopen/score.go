package quickopen

import (
	"github.com/sahilm/fuzzy"
)

// The library's bonuses and penalties (github.com/sahilm/fuzzy v0.1.3).
const (
	firstCharMatchBonus            = 10
	matchFollowingSeparatorBonus   = 20
	camelCaseMatchBonus            = 20
	adjacentMatchBonus             = 5
	unmatchedLeadingCharPenalty    = -5
	maxUnmatchedLeadingCharPenalty = -15
)

// scoreASCII is the library's scoring (fuzzy.Find's loop for one string)
// over bytes, for a pattern and a name both in ASCII: the same score and
// matched offsets, without the library's decoding, rune folding and
// allocation per name, so that one letter over ten thousand files fits in
// a frame. folded is the pattern in lower case. When matched is not nil,
// the offsets of the matched bytes are appended to *matched. decided is
// false when s holds a byte past ASCII or a NUL: the library decides those
// (Unicode folds the Kelvin sign onto k; the library stops at a NUL). The
// tests compare it with the library over GOROOT/src.
func scoreASCII(folded []byte, s string, matched *[]int) (score int, ok, decided bool) {
	pi := 0
	nMatched, lastMatch := 0, -1
	bestScore, matchedIndex := -1, -1
	currAdjacentMatchBonus := 0
	var last byte
	lastIndex := 0
	for j := 0; j < len(s); j++ {
		c := s[j]
		if c >= 0x80 || c == 0 {
			return 0, false, false
		}
		if lower(c) == folded[pi] {
			sc := 0
			if j == 0 {
				sc += firstCharMatchBonus
			}
			if 'a' <= last && last <= 'z' && 'A' <= c && c <= 'Z' {
				sc += camelCaseMatchBonus
			}
			if j != 0 && isSeparator(last) {
				sc += matchFollowingSeparatorBonus
			}
			if nMatched > 0 && lastIndex == lastMatch {
				bonus := currAdjacentMatchBonus*2 + adjacentMatchBonus
				sc += bonus
				currAdjacentMatchBonus += bonus
			}
			if sc > bestScore {
				bestScore, matchedIndex = sc, j
			}
		}
		var nextp, nextc byte
		if pi < len(folded)-1 {
			nextp = folded[pi+1]
		}
		if j+1 < len(s) {
			nextc = lower(s[j+1])
		}
		// The library settles a pattern letter on its best place so far
		// when the next letter comes up next, or at the end.
		if (nextp == nextc || nextc == 0) && matchedIndex > -1 {
			if nMatched == 0 {
				bestScore += max(matchedIndex*unmatchedLeadingCharPenalty, maxUnmatchedLeadingCharPenalty)
			}
			score += bestScore
			nMatched++
			lastMatch = matchedIndex
			if matched != nil {
				*matched = append(*matched, matchedIndex)
			}
			bestScore = -1
			pi++
		}
		lastIndex = j
		last = c
	}
	score += nMatched - len(s)
	return score, nMatched == len(folded), true
}

func isSeparator(c byte) bool {
	switch c {
	case '/', '-', '_', ' ', '.', '\\':
		return true
	}
	return false
}

// scoreLibrary scores s with the library itself: for a pattern or a name
// past ASCII.
func scoreLibrary(pattern, s string) (score int, matched []int, ok bool) {
	m := fuzzy.FindNoSort(pattern, []string{s})
	if len(m) == 0 {
		return 0, nil, false
	}
	return m[0].Score, m[0].MatchedIndexes, true
}
