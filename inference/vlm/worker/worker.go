package worker

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"

	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
	"github.com/shoebox-app/shoebox/internal/plain"
)

// Serve runs the worker loop: requests on in, responses on out, until in
// closes. It holds one loaded model between requests.
func Serve(in io.Reader, out io.Writer) error {
	llama.BackendInit()
	s := &session{}
	defer s.free()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req protocol.WorkerRequest
		resp := protocol.WorkerResponse{V: protocol.ProtocolVersion}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			resp.Error = "bad request: " + err.Error()
			if err := enc.Encode(resp); err != nil {
				return err // the engine is gone
			}
			continue
		}
		resp.ID = req.ID
		if req.V != protocol.ProtocolVersion {
			resp.Error = fmt.Sprintf("protocol version %d, this worker speaks %d", req.V, protocol.ProtocolVersion)
			if err := enc.Encode(resp); err != nil {
				return err
			}
			continue
		}
		testFault(req.Op)
		var err error
		switch req.Op {
		case "ping":
		case "load":
			err = s.load(req, &resp)
		case "extract":
			err = s.extract(req, &resp)
			testRefusal(req, &resp)
			testBang(&resp)
		case "canary":
			err = s.canary(&resp)
		default:
			err = fmt.Errorf("unknown operation %q", req.Op)
		}
		resp.OK = err == nil
		if err != nil {
			resp.Error = err.Error()
		}
		if err := enc.Encode(resp); err != nil {
			return err
		}
	}
	return sc.Err()
}

type session struct {
	model    *llama.Model
	ctx      *llama.Context
	mtmd     *llama.MtmdContext
	batch    int
	parallel int
	seqCtx   int // context cells per sequence
	// firstBytes narrows the grammar's passes over the vocabulary.
	firstBytes *firstByteIndex
	// forward is the time inside llama.cpp's decode steps of the current
	// extract request: the rest of a page's decode time is the engine's.
	forward time.Duration
}

func (s *session) free() {
	if s.mtmd != nil {
		s.mtmd.Free()
	}
	if s.model != nil {
		llama.FreeModel(s.model)
	}
	*s = session{}
}

func (s *session) load(req protocol.WorkerRequest, resp *protocol.WorkerResponse) error {
	start := time.Now()
	s.free()
	m, err := llama.LoadModelFromFile(req.Model, llama.ModelParams{NumGpuLayers: req.GPULayers, MainGpu: req.MainGPU, TensorSplit: req.TensorSplit, UseMmap: true})
	if err != nil {
		return fmt.Errorf("llama.cpp could not load %s: %w", req.Model, err)
	}
	s.model = m
	fa := ml.FlashAttentionAuto
	switch req.FlashAttention {
	case "on":
		fa = ml.FlashAttentionEnabled
	case "off":
		fa = ml.FlashAttentionDisabled
	}
	s.batch, s.parallel, s.seqCtx = max(req.Batch, 64), max(req.Parallel, 1), max(req.Context, 512)
	// The context's cells are shared out between the sequences: each page
	// gets Context of its own.
	c, err := llama.NewContextWithModel(m, llama.NewContextParams(s.seqCtx*s.parallel, s.batch, s.parallel, max(req.Threads, 1), fa, req.KVType))
	if err != nil {
		return fmt.Errorf("llama.cpp could not make a context for %d sequences: %w", s.parallel, err)
	}
	s.ctx = c
	noEmbeddings(c)
	if req.Projector != "" {
		mt, err := NewMtmd(c, req.Projector, req.Threads, req.ProjectorOnGPU)
		if err != nil {
			return fmt.Errorf("the projector %s does not fit the model: %w", req.Projector, err)
		}
		s.mtmd = mt
	}
	s.firstBytes = newFirstByteIndex(m)
	resp.LoadMS = plain.Millis(time.Since(start))
	return nil
}

// sequence is one page being read in an extract request.
type sequence struct {
	out     *protocol.PageResponse
	sampler *greedySampler
	pos     int // next position in the sequence
	next    int // the token to feed at pos
	slot    int // its index in the step's batch, for its logits
	active  bool
	started time.Time
}

// extract reads up to s.parallel pages together: each page's prompt and
// image are evaluated into its own sequence, then every step decodes one
// token for each page still writing, in one batch, so a GPU does the
// work of several pages for little more than the cost of one.
func (s *session) extract(req protocol.WorkerRequest, resp *protocol.WorkerResponse) error {
	if s.ctx == nil {
		return errors.New("no model is loaded")
	}
	if len(req.Pages) == 0 || len(req.Pages) > s.parallel {
		return fmt.Errorf("an extract request carries 1 to %d pages, not %d", s.parallel, len(req.Pages))
	}
	grammar := ""
	if req.Schema != "" {
		g := llama.SchemaToGrammar([]byte(req.Schema))
		if g == nil {
			return errors.New("the output schema could not be turned into a grammar")
		}
		grammar = CompactGrammar(string(g))
	}
	s.ctx.KvCacheClear()
	s.forward = 0
	maxTok := max(req.MaxTokens, 16)
	nVocab := s.model.NumVocab()
	resp.Pages = make([]protocol.PageResponse, len(req.Pages))
	seqs := make([]*sequence, len(req.Pages))
	for i, page := range req.Pages {
		sq := &sequence{out: &resp.Pages[i]}
		seqs[i] = sq
		sampler, err := newGreedySampler(s.model, grammar, s.firstBytes)
		if err != nil {
			return err
		}
		defer sampler.free()
		sq.sampler = sampler
		t := time.Now()
		pos, n, encode, err := s.prefill(page, i)
		sq.out.PrefillMS, sq.out.EncodeMS, sq.out.PromptTokens = plain.Millis(time.Since(t)-encode), plain.Millis(encode), n
		if err != nil {
			sq.out.Error = err.Error()
			s.ctx.KvCacheSeqRm(i, 0, -1)
			continue
		}
		// The prompt's last logits are overwritten by the next page's
		// prefill: take this page's first token now.
		sq.pos, sq.active, sq.started = pos, true, time.Now()
		s.take(sq, logitsAt(s.ctx, -1, nVocab), maxTok)
	}
	step, err := llama.NewBatch(max(s.batch, len(seqs)), 1, 0)
	if err != nil {
		return err
	}
	defer step.Free()
	for {
		step.Clear()
		for i, sq := range seqs {
			if sq.active {
				sq.slot = step.NumTokens()
				step.Add(sq.next, nil, sq.pos, true, i)
				sq.pos++
			}
		}
		if step.NumTokens() == 0 {
			break
		}
		t := time.Now()
		err := s.ctx.Decode(step)
		s.ctx.Synchronize() // a GPU back-end returns before it is done
		s.forward += time.Since(t)
		if err != nil {
			for _, sq := range seqs {
				if sq.active {
					sq.out.Error = fmt.Sprintf("decode failed after %d tokens (the page's context of %d tokens may be full): %v", len(sq.out.Pieces), s.seqCtx, err)
					sq.active = false
				}
			}
			break
		}
		for _, sq := range seqs {
			if sq.active {
				s.take(sq, logitsAt(s.ctx, sq.slot, nVocab), maxTok)
			}
		}
	}
	return nil
}

// prefill evaluates one page's prompt (and image) into sequence seq and
// returns the position after it and how many tokens it took.
func (s *session) prefill(page protocol.PageRequest, seq int) (int, int, time.Duration, error) {
	prefix, suffix := "", "\n"+page.User+"\n"
	var msgs []Message
	if page.System != "" {
		prefix = page.System + "\n"
		msgs = append(msgs, Message{"system", page.System})
	}
	msgs = append(msgs, Message{"user", ImageMarker + "\n" + page.User})
	if text, ok := ApplyChatTemplate(s.model, msgs, page.Template); ok {
		if i := strings.Index(text, ImageMarker); i >= 0 {
			prefix, suffix = text[:i], text[i+len(ImageMarker):]
		}
	}
	if len(page.Image) > 0 {
		if s.mtmd == nil {
			return 0, 0, 0, errors.New("the model has no projector: it cannot read images")
		}
		// mtmd's helper encodes the image and lays out positions for the
		// model's family (M-RoPE, non-causal image attention) itself.
		return EvalPrompt(s.mtmd, s.ctx, prefix+ImageMarker+suffix, page.Image, seq, s.batch)
	}
	toks, err := s.model.Tokenize(prefix+suffix, true, true)
	if err != nil {
		return 0, 0, 0, err
	}
	b, err := llama.NewBatch(s.batch, 1, 0)
	if err != nil {
		return 0, 0, 0, err
	}
	defer b.Free()
	for i := 0; i < len(toks); i += s.batch {
		b.Clear()
		for j := i; j < min(i+s.batch, len(toks)); j++ {
			b.Add(toks[j], nil, j, j == len(toks)-1, seq)
		}
		if err := s.ctx.Decode(b); err != nil {
			return 0, 0, 0, fmt.Errorf("prefill failed at token %d: %w", i, err)
		}
	}
	return len(toks), len(toks), 0, nil
}

// take samples a sequence's next token from its logits and either queues
// it for the next step or ends the sequence (end of text, token limit,
// a grammar dead end).
func (s *session) take(sq *sequence, logits []float32, maxTok int) {
	finish := func(msg string) {
		sq.active = false
		sq.out.Error = msg
		sq.out.Output = outputOf(sq.out.Pieces)
		sq.out.DecodeMS = plain.Millis(time.Since(sq.started))
		sq.out.FullGrammarSteps, sq.out.GrammarRescueMS = sq.sampler.full, plain.Millis(sq.sampler.rescue)
		sq.out.ForwardMS = plain.Millis(s.forward)
	}
	tok, p, err := sq.sampler.pick(logits)
	if err != nil {
		finish(err.Error())
		return
	}
	if math.IsNaN(float64(p)) {
		sq.out.BadLogits, p = true, 0
	}
	if s.model.TokenIsEog(tok) {
		finish("")
		return
	}
	piece := s.model.TokenToPiece(tok)
	sq.out.Pieces = append(sq.out.Pieces, protocol.Piece{Text: piece, P: p})
	// The token limit, or the page's context full (the image and a long
	// hint left less room than the limit): the answer ends here and the
	// parent closes what is open.
	if len(sq.out.Pieces) >= maxTok || sq.out.PromptTokens+len(sq.out.Pieces)+1 >= s.seqCtx {
		finish("")
		return
	}
	sq.next = tok
}

// CompactGrammar narrows the whitespace a schema's grammar allows between
// JSON tokens (up to two newlines and twenty tabs or spaces, each a token
// or more) to one optional space: a pretty-printed answer spent a fifth of
// its tokens, and of the token limit, on indentation.
func CompactGrammar(g string) string {
	lines := strings.Split(g, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "space ::= ") {
			lines[i] = `space ::= " "?`
		}
	}
	return strings.Join(lines, "\n")
}

func outputOf(pieces []protocol.Piece) string {
	var b strings.Builder
	for _, p := range pieces {
		b.WriteString(p.Text)
	}
	return b.String()
}

// canary decodes hw.CanaryPrompt greedily with no grammar, reporting the text
// and whether any step's logits were NaN or infinite.
func (s *session) canary(resp *protocol.WorkerResponse) error {
	if s.ctx == nil {
		return errors.New("no model is loaded")
	}
	s.ctx.KvCacheClear()
	toks, err := s.model.Tokenize(hw.CanaryPrompt, true, true)
	if err != nil {
		return err
	}
	b, err := llama.NewBatch(max(len(toks), 16), 1, 0)
	if err != nil {
		return err
	}
	defer b.Free()
	for i, t := range toks {
		b.Add(t, nil, i, i == len(toks)-1, 0)
	}
	if err := s.ctx.Decode(b); err != nil {
		return err
	}
	idx, pos := b.NumTokens()-1, len(toks)
	var out []byte
	for n := 0; n < 12; n++ {
		logits := s.ctx.GetLogitsIth(idx)
		best := 0
		for j, l := range logits {
			if math.IsNaN(float64(l)) || math.IsInf(float64(l), 0) {
				resp.BadLogits = true
			}
			if l > logits[best] {
				best = j
			}
		}
		if s.model.TokenIsEog(best) {
			break
		}
		out = append(out, s.model.TokenToPiece(best)...)
		b.Clear()
		b.Add(best, nil, pos, true, 0)
		pos++
		if err := s.ctx.Decode(b); err != nil {
			return err
		}
		idx = 0
	}
	resp.Output = string(out)
	return nil
}
