package llamacpp

import (
	"errors"
	"math"

	"github.com/ollama/ollama/llama"
)

// vocab is what a grammar needs to know of the model's tokens: their text
// and which of them end generation. It is built once per loaded model.
type vocab struct {
	ids    []uint32
	pieces []string
	eog    []int32
}

func newVocab(m *llama.Model) vocab {
	n := m.NumVocab()
	v := vocab{ids: make([]uint32, n), pieces: make([]string, n)}
	for i := 0; i < n; i++ {
		v.ids[i] = uint32(i)
		v.pieces[i] = m.TokenToPiece(i)
		if m.TokenIsEog(i) {
			v.eog = append(v.eog, int32(i))
		}
	}
	return v
}

// greedySampler picks the most likely token that the grammar allows.
//
// llama.cpp's sampler chain runs the grammar over the whole vocabulary at
// every step, which on a 150k-token vocabulary costs more than a GPU's
// forward pass. Greedy decoding needs only the best allowed token, so the
// best token is asked first and the grammar runs over the vocabulary only
// when it rejects that one (mostly at the fixed JSON keys and punctuation).
// The result is the same token the full chain picks.
type greedySampler struct {
	grammar *llama.Grammar // nil: no grammar
	all     []llama.TokenData
}

func newGreedySampler(v vocab, grammar string) (*greedySampler, error) {
	s := &greedySampler{}
	if grammar != "" {
		s.grammar = llama.NewGrammar(grammar, v.ids, v.pieces, v.eog)
		if s.grammar == nil {
			return nil, errors.New("llama.cpp rejected the output grammar")
		}
	}
	return s, nil
}

func (s *greedySampler) free() {
	if s.grammar != nil {
		s.grammar.Free()
	}
}

// errGrammarDeadEnd means no token can continue the output.
var errGrammarDeadEnd = errors.New("the output grammar allows no next token")

// pick chooses the next token from logits, accepts it into the grammar and
// returns it with the probability the model gave it (before the grammar).
func (s *greedySampler) pick(logits []float32) (int, float32, error) {
	best := argmax(logits)
	if best < 0 {
		return 0, 0, errors.New("no logits")
	}
	tok := best
	if s.grammar != nil {
		one := []llama.TokenData{{ID: int32(best), Logit: logits[best]}}
		s.grammar.Apply(one)
		if math.IsInf(float64(one[0].Logit), -1) {
			if cap(s.all) < len(logits) {
				s.all = make([]llama.TokenData, len(logits))
			}
			s.all = s.all[:len(logits)]
			for i, l := range logits {
				s.all[i] = llama.TokenData{ID: int32(i), Logit: l}
			}
			s.grammar.Apply(s.all)
			tok = -1
			for i, td := range s.all {
				if !math.IsInf(float64(td.Logit), -1) && (tok < 0 || td.Logit > s.all[tok].Logit) {
					tok = i
				}
			}
			if tok < 0 {
				return 0, 0, errGrammarDeadEnd
			}
		}
		s.grammar.Accept(int32(tok))
	}
	return tok, softmaxAt(logits, tok, logits[best]), nil
}

// argmax is the index of the largest logit; NaNs never win, so all-NaN
// logits give token 0 (and the output guards see the nonsense).
func argmax(logits []float32) int {
	if len(logits) == 0 {
		return -1
	}
	best := 0
	for i, l := range logits {
		if l > logits[best] {
			best = i
		}
	}
	return best
}

// softmaxAt is the softmax probability of tok given the largest logit.
// Logits more than 30 below the largest add under e^-30 each to the sum,
// so they are skipped: on a 150k vocabulary that turns most of a
// millisecond of exp calls per token into a few compares. NaN logits give NaN.
func softmaxAt(logits []float32, tok int, maxL float32) float32 {
	if tok < 0 || tok >= len(logits) {
		return 0
	}
	if math.IsNaN(float64(maxL)) || math.IsNaN(float64(logits[tok])) {
		return float32(math.NaN())
	}
	floor := maxL - 30
	var sum float64
	for _, l := range logits {
		if l > floor {
			sum += math.Exp(float64(l - maxL))
		}
	}
	return float32(math.Exp(float64(logits[tok]-maxL)) / sum)
}
