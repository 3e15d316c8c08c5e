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
	if len(folded) == 1 {
		return scoreLetter(folded[0], s, matched)
	}
	pi := 0
	want, wantNext := folded[0], next(folded, 0)
	nMatched, lastMatch := 0, -1
	bestScore, matchedIndex := -1, -1
	currAdjacentMatchBonus := 0
	var last byte
	nextc := byte(0)
	if len(s) > 0 {
		nextc = lowered[s[0]]
	}
	for j := 0; j < len(s); j++ {
		c, lc := s[j], nextc
		if lc == notASCII {
			return 0, false, false
		}
		nextc = 0
		if j+1 < len(s) {
			nextc = lowered[s[j+1]]
		}
		if lc == want {
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
			if nMatched > 0 && lastMatch == j-1 {
				bonus := currAdjacentMatchBonus*2 + adjacentMatchBonus
				sc += bonus
				currAdjacentMatchBonus += bonus
			}
			if sc > bestScore {
				bestScore, matchedIndex = sc, j
			}
		}
		// The library settles a pattern letter on its best place so far
		// when the next letter comes up next, or at the end.
		if (nextc == wantNext || nextc == 0) && matchedIndex > -1 {
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
			if pi < len(folded) {
				want, wantNext = folded[pi], next(folded, pi)
			} else {
				want, wantNext = notASCII, notASCII // the end of s: nothing more to match
			}
		}
		last = c
	}
	score += nMatched - len(s)
	return score, nMatched == len(folded), true
}

// scoreLetter is scoreASCII for a pattern of one letter, the first
// keystroke, which nearly every name matches. The library then settles
// the letter only at the end of the name, on its first best place: 10 at
// the start, 20 after a separator or as a capital after a small letter,
// else 0; less 5 for each byte before it, at most 15.
func scoreLetter(want byte, s string, matched *[]int) (score int, ok, decided bool) {
	bestScore, matchedIndex := -1, -1
	var last byte
	for j := 0; j < len(s); j++ {
		c := s[j]
		lc := lowered[c]
		if lc == notASCII {
			return 0, false, false
		}
		if lc == want && bestScore < camelCaseMatchBonus {
			sc := 0
			switch {
			case j == 0:
				sc = firstCharMatchBonus
			case 'a' <= last && last <= 'z' && 'A' <= c && c <= 'Z':
				sc = camelCaseMatchBonus
			case isSeparator(last):
				sc = matchFollowingSeparatorBonus
			}
			if sc > bestScore {
				bestScore, matchedIndex = sc, j
			}
		}
		last = c
	}
	if matchedIndex < 0 {
		return -len(s), false, true
	}
	if matched != nil {
		*matched = append(*matched, matchedIndex)
	}
	score = bestScore + max(matchedIndex*unmatchedLeadingCharPenalty, maxUnmatchedLeadingCharPenalty)
	return score + 1 - len(s), true, true
}

// next is the pattern letter after the one at i, or 0 after the last (the
// library's "end").
func next(folded []byte, i int) byte {
	if i+1 < len(folded) {
		return folded[i+1]
	}
	return 0
}

// notASCII marks in lowered a byte past ASCII or a NUL.
const notASCII = 0xff

// lowered maps ASCII bytes to lower case and the rest to notASCII.
var lowered = func() (t [256]byte) {
	for i := range t {
		switch c := byte(i); {
		case c == 0 || c >= 0x80:
			t[i] = notASCII
		default:
			t[i] = lower(c)
		}
	}
	return t
}()

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
