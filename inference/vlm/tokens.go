package vlm

import "unicode"

// DefaultMaxTokens bounds one page's answer. It is the full answer to the
// longest dev receipt (SROIE dev and more: every line with an amount
// written as a line item with all five keys, plus every header, total and
// payment field: SROIE 211, 39 lines) estimated at 2,712 tokens by
// EstimateTokens, with a fifth more, rounded up to a multiple of 256. An answer that reaches it is
// closed after its last whole value (CloseTruncated); the schema puts the
// totals before the lists, so only the last lines are lost.
// TestTokenLimitFitsTheLongestDevReceipt keeps the two in step.
const DefaultMaxTokens = 3328

// EstimateTokens approximates the tokens the BPE vocabularies of today's
// vision models (Qwen's 152k, InternVL's and MiniCPM-V's Qwen-based ones)
// spend on text: one per digit (Qwen splits numbers into single digits),
// one per punctuation mark, a run of lower-case letters per 4, of capitals
// (receipts shout) per 2.5, a space folded into the word after it.
func EstimateTokens(s string) int {
	n := 0
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsLetter(r):
			j, upper := i, 0
			for j < len(rs) && unicode.IsLetter(rs[j]) {
				if unicode.IsUpper(rs[j]) {
					upper++
				}
				j++
			}
			lower := j - i - upper
			n += (lower+3)/4 + (upper*2+4)/5
			i = j
		case r == ' ' && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			i++ // folded into the word
		default:
			n++
			i++
		}
	}
	return n
}
