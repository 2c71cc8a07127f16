package hw

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// CanaryPrompt is decoded greedily after every model load; a sound model
// answers it with ordinary text.
const CanaryPrompt = "Write the word receipt three times, separated by spaces:"

// JudgeCanary decides whether a freshly loaded model computes correctly,
// from its greedy answer to CanaryPrompt and the logits of its first
// step. It rejects what broken GPU set-ups produce: NaN or infinite logits,
// no output, and one character repeated ("!!!!" is token 0 chosen from NaN
// logits). The error says what was seen, for the plan's Steps.
func JudgeCanary(output string, logits []float32) error {
	for _, l := range logits {
		if math.IsNaN(float64(l)) || math.IsInf(float64(l), 0) {
			return fmt.Errorf("the model produced NaN or infinite values (a precision or multi-GPU fault)")
		}
	}
	text := strings.TrimSpace(output)
	if text == "" {
		return fmt.Errorf("the model produced no output")
	}
	if r, share := dominantRune(text); utf8.RuneCountInString(text) >= 4 && share >= 0.8 {
		return fmt.Errorf("the model produced only %q repeated (%q): its arithmetic is broken on this device", r, truncate(text, 16))
	}
	return nil
}

// dominantRune returns the commonest non-space character and its share.
func dominantRune(s string) (rune, float64) {
	counts := map[rune]int{}
	total := 0
	for _, r := range s {
		if r == ' ' || r == '\n' || r == '\t' {
			continue
		}
		counts[r]++
		total++
	}
	var best rune
	for r, n := range counts {
		if n > counts[best] {
			best = r
		}
	}
	if total == 0 {
		return 0, 0
	}
	return best, float64(counts[best]) / float64(total)
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
