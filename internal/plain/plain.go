// Package plain holds the few wording helpers several packages share when
// they write for people: plurals, quoted text clipped to a length without
// breaking a character, durations in milliseconds.
package plain

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Word is one when n is 1, else many.
func Word(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n and its word: "1 receipt", "3 receipts".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Word(n, one, many)
}

// Clip collapses s's white space and cuts it to at most n bytes, on a
// character boundary, marking a cut with "…".
func Clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Millis is d in milliseconds, with microseconds as the fraction.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
