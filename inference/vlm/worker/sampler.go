package worker

/*
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// llama.cpp's own grammar sampler, declared as llama.h has it. It reads
// token text from the model's vocabulary, so a grammar costs no copy of
// the vocabulary (ollama's Grammar copies it, 80 ms per page for 152k
// tokens, and its full pass is slower: 30 ms against 19 ms).
struct llama_model;
struct llama_vocab;
struct llama_sampler;
typedef struct { int32_t id; float logit; float p; } shoebox_token_data;
typedef struct { shoebox_token_data * data; size_t size; int64_t selected; bool sorted; } shoebox_token_data_array;
const struct llama_vocab * llama_model_get_vocab(const struct llama_model * model);
struct llama_sampler * llama_sampler_init_grammar(const struct llama_vocab * vocab, const char * grammar_str, const char * grammar_root);
void llama_sampler_apply(struct llama_sampler * smpl, shoebox_token_data_array * cur_p);
void llama_sampler_accept(struct llama_sampler * smpl, int32_t token);
void llama_sampler_free(struct llama_sampler * smpl);
*/
import "C"

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/ollama/ollama/llama"
)

// greedySampler picks the most likely token that the grammar allows.
//
// llama.cpp's sampler chain runs the grammar over the whole vocabulary at
// every step, which on a 150k-token vocabulary costs ~19 ms: more than a
// GPU's forward pass. Greedy decoding needs only the best allowed token, so
// the best token is asked first; when the grammar rejects it (mostly at the
// fixed JSON keys and punctuation) the next best 15, then the next 240, and
// only then the vocabulary, narrowed by first byte (firstByteIndex). The
// result is the token a greedy chain with the grammar over the whole
// vocabulary picks.
type greedySampler struct {
	grammar *C.struct_llama_sampler // nil: no grammar
	index   *firstByteIndex         // nil: the whole vocabulary is asked
	cands   []C.shoebox_token_data
	top     []int
	full    int           // steps that needed the grammar over the whole vocabulary
	rescue  time.Duration // time spent finding a token when the favourite was refused
}

// candidateSpans are the ranks asked in turn when the favourite is rejected.
var candidateSpans = [][2]int{{1, 16}, {16, 256}}

func newGreedySampler(m *llama.Model, grammar string, index *firstByteIndex) (*greedySampler, error) {
	s := &greedySampler{index: index}
	if grammar != "" {
		cg, root := C.CString(grammar), C.CString("root")
		defer C.free(unsafe.Pointer(cg))
		defer C.free(unsafe.Pointer(root))
		s.grammar = C.llama_sampler_init_grammar(C.llama_model_get_vocab(modelPtr(m)), cg, root)
		if s.grammar == nil {
			return nil, errors.New("llama.cpp rejected the output grammar")
		}
	}
	return s, nil
}

func (s *greedySampler) free() {
	if s.grammar != nil {
		C.llama_sampler_free(s.grammar)
		s.grammar = nil
	}
}

// errGrammarDeadEnd means no token can continue the output.
var errGrammarDeadEnd = errors.New("the output grammar allows no next token")

// pick chooses the next token from logits, accepts it into the grammar and
// returns it with the probability the model gave it (before the grammar).
func (s *greedySampler) pick(logits []float32) (int, float32, error) {
	best, maxL, sum := logitStats(logits)
	if best < 0 {
		return 0, 0, errors.New("no logits")
	}
	tok := best
	if s.grammar != nil {
		tok = s.firstAllowed(logits, []int{best})
		if tok < 0 {
			defer func(start time.Time) { s.rescue += time.Since(start) }(time.Now())
			s.top = topK(logits, candidateSpans[len(candidateSpans)-1][1], s.top)
			for _, span := range candidateSpans {
				if tok = s.firstAllowed(logits, s.top[min(span[0], len(s.top)):min(span[1], len(s.top))]); tok >= 0 {
					break
				}
			}
		}
		if tok < 0 {
			s.full++
			tok = s.bestAllowed(logits, s.candidates(len(logits)))
		}
		if tok < 0 {
			return 0, 0, errGrammarDeadEnd
		}
		C.llama_sampler_accept(s.grammar, C.int32_t(tok))
	}
	if math.IsNaN(float64(maxL)) || math.IsNaN(float64(logits[tok])) {
		return tok, float32(math.NaN()), nil
	}
	return tok, expNeg(logits[tok]-maxL) / sum, nil
}

// candidates are the tokens the grammar may allow: with an index, those
// whose first byte it allows (a token whose first character is refused is
// refused), else the whole vocabulary.
func (s *greedySampler) candidates(nVocab int) []int {
	if s.index == nil || s.index.n != nVocab {
		all := make([]int, nVocab)
		for i := range all {
			all[i] = i
		}
		return all
	}
	allowed := [256]bool{}
	for b := range allowed {
		allowed[b] = s.index.rep[b] < 0 // no one-byte token to ask: keep its tokens
	}
	for i, c := range s.apply(nil, s.index.reps) {
		if !math.IsInf(float64(c.logit), -1) {
			allowed[s.index.repByte[i]] = true
		}
	}
	out := append([]int(nil), s.index.always...)
	for b, ok := range allowed {
		if ok {
			out = append(out, s.index.byFirst[b]...)
		}
	}
	return out
}

// firstByteIndex groups a model's tokens by the first byte of their text,
// with a one-byte token to stand for each byte, so that a grammar pass over
// the vocabulary asks only the tokens whose first byte can come next. Built
// once per loaded model (50 ms for 152k tokens).
type firstByteIndex struct {
	n       int        // tokens in the vocabulary
	rep     [256]int   // the token whose text is that one byte, or -1
	byFirst [256][]int // tokens by their text's first byte
	always  []int      // end-of-generation tokens and tokens with no text: always asked
	// reps are the one-byte tokens there are, and repByte their bytes.
	reps, repByte []int
}

func newFirstByteIndex(m *llama.Model) *firstByteIndex {
	ix := &firstByteIndex{n: m.NumVocab()}
	for b := range ix.rep {
		ix.rep[b] = -1
	}
	for id := range ix.n {
		piece := m.TokenToPiece(id)
		if piece == "" || m.TokenIsEog(id) {
			ix.always = append(ix.always, id)
			continue
		}
		b := piece[0]
		ix.byFirst[b] = append(ix.byFirst[b], id)
		if len(piece) == 1 && ix.rep[b] < 0 {
			ix.rep[b] = id
		}
	}
	for b, id := range ix.rep {
		if id >= 0 {
			ix.reps, ix.repByte = append(ix.reps, id), append(ix.repByte, b)
		}
	}
	return ix
}

// apply asks the grammar about ids: the candidates it forbids come back
// with a logit of -Inf, in the order of ids.
func (s *greedySampler) apply(logits []float32, ids []int) []C.shoebox_token_data {
	s.cands = s.cands[:0]
	for _, id := range ids {
		var l float32 // nil logits: only which ids are allowed matters
		if logits != nil {
			l = logits[id]
		}
		s.cands = append(s.cands, C.shoebox_token_data{id: C.int32_t(id), logit: C.float(l)})
	}
	if len(s.cands) == 0 {
		return nil
	}
	var pin runtime.Pinner
	pin.Pin(&s.cands[0])
	defer pin.Unpin()
	arr := C.shoebox_token_data_array{data: &s.cands[0], size: C.size_t(len(s.cands)), selected: -1}
	C.llama_sampler_apply(s.grammar, &arr)
	return s.cands
}

// firstAllowed is the first of ids (best first) that the grammar allows, or -1.
func (s *greedySampler) firstAllowed(logits []float32, ids []int) int {
	for _, c := range s.apply(logits, ids) {
		if !math.IsInf(float64(c.logit), -1) {
			return int(c.id)
		}
	}
	return -1
}

// bestAllowed is the allowed id with the largest logit (ties: the lowest id), or -1.
func (s *greedySampler) bestAllowed(logits []float32, ids []int) int {
	tok := -1
	for _, c := range s.apply(logits, ids) {
		// ids need not be in vocabulary order (candidates groups them by
		// first byte): ties go to the lower id, as in the chain.
		if l, id := float32(c.logit), int(c.id); !math.IsInf(float64(l), -1) && (tok < 0 || l > logits[tok] || l == logits[tok] && id < tok) {
			tok = id
		}
	}
	return tok
}

// topK returns the indexes of the k largest logits, largest first (ties:
// lower index first, as argmax), reusing buf.
func topK(logits []float32, k int, buf []int) []int {
	k = min(k, len(logits))
	better := func(a, b int) bool { return logits[a] > logits[b] || logits[a] == logits[b] && a < b }
	// h is a heap of the best k so far, the worst of them at the root.
	h := buf[:0]
	for i := range logits {
		if len(h) < k {
			h = append(h, i)
			for j := len(h) - 1; j > 0; {
				p := (j - 1) / 2
				if !better(h[p], h[j]) {
					break
				}
				h[p], h[j] = h[j], h[p]
				j = p
			}
			continue
		}
		if !better(i, h[0]) {
			continue
		}
		h[0] = i
		for j := 0; ; {
			c := 2*j + 1
			if c >= len(h) {
				break
			}
			if c+1 < len(h) && better(h[c], h[c+1]) {
				c++
			}
			if !better(h[j], h[c]) {
				break
			}
			h[j], h[c] = h[c], h[j]
			j = c
		}
	}
	slices.SortFunc(h, func(a, b int) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	return h
}

// logitStats finds, in one pass over the vocabulary, the largest logit,
// its index and the softmax denominator relative to it (logits more than 30
// below the running largest are skipped: under e^-30 each). Large
// vocabularies are split between goroutines: this runs between every two
// decode steps, and on a GPU each step is a few milliseconds.
func logitStats(logits []float32) (best int, maxL, sum float32) {
	const chunk = 1 << 15
	parts := min(runtime.GOMAXPROCS(0), (len(logits)+chunk-1)/chunk, 8)
	if parts <= 1 {
		return logitStatsOf(logits, 0)
	}
	type stat struct {
		best      int
		maxL, sum float32
	}
	stats := make([]stat, parts)
	size := (len(logits) + parts - 1) / parts
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*size, min((p+1)*size, len(logits))
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, m, s := logitStatsOf(logits[lo:hi], lo)
			stats[p] = stat{b, m, s}
		}()
	}
	wg.Wait()
	best, maxL = stats[0].best, stats[0].maxL
	for _, st := range stats[1:] {
		if st.maxL > maxL {
			best, maxL = st.best, st.maxL
		}
	}
	for _, st := range stats {
		if st.best >= 0 && st.maxL-maxL > -87 {
			sum += st.sum * expNeg(st.maxL-maxL)
		}
	}
	return best, maxL, sum
}

// logitStatsOf is logitStats for one part, whose first index is offset.
func logitStatsOf(logits []float32, offset int) (best int, maxL, sum float32) {
	if len(logits) == 0 {
		return -1, 0, 0
	}
	best, maxL = offset, logits[0]
	for i, l := range logits {
		if l > maxL {
			sum = sum*expNeg(maxL-l) + 1 // rescale what was summed to the new largest (rare)
			best, maxL = offset+i, l
		} else if l > maxL-30 {
			sum += expNear(l - maxL)
		}
	}
	return best, maxL, sum
}

// expNeg is e^x for x ≤ 0 in float32 arithmetic, to about 1e-5 relative;
// 0 below -87.
func expNeg(x float32) float32 {
	if x < -87 {
		return 0
	}
	return expNear(x)
}

// expNear is e^x for -87 ≤ x ≤ 0, small enough for the compiler to inline
// into the per-logit loops: x·log2(e) = n + f with n an integer and
// |f| ≤ ½, 2^f by a degree-5 polynomial, n added to the exponent bits.
func expNear(x float32) float32 {
	t := x * 1.442695
	r := t + 12582912 // 1.5·2^23: rounds t to an integer in the low bits
	f := t - (r - 12582912)
	p := ((((1.3333558e-3*f+9.6181291e-3)*f+5.5504109e-2)*f+2.4022651e-1)*f+6.9314718e-1)*f + 1
	return math.Float32frombits(math.Float32bits(p) + (math.Float32bits(r)-0x4b400000)<<23)
}
