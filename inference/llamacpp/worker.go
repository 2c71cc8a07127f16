package llamacpp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/ollama/ollama/llama"
	"github.com/ollama/ollama/ml"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
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
		var req inference.WorkerRequest
		resp := inference.WorkerResponse{V: inference.ProtocolVersion}
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			resp.Error = "bad request: " + err.Error()
			enc.Encode(resp)
			continue
		}
		resp.ID = req.ID
		if req.V != inference.ProtocolVersion {
			resp.Error = fmt.Sprintf("protocol version %d, this worker speaks %d", req.V, inference.ProtocolVersion)
			enc.Encode(resp)
			continue
		}
		testFault(req.Op)
		if refusal, ok := testRefusal(req); ok {
			resp.OK, resp.Output = true, refusal
			enc.Encode(resp)
			continue
		}
		var err error
		switch req.Op {
		case "ping":
		case "load":
			err = s.load(req, &resp)
		case "extract":
			err = s.extract(req, &resp)
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

// testFault lets tests make a worker die or hang once, as llama.cpp can.
func testFault(op string) {
	if op != "extract" {
		return
	}
	for env, act := range map[string]func(){
		"SHOEBOX_WORKER_CRASH_ONCE": func() { os.Exit(134) },
		"SHOEBOX_WORKER_HANG_ONCE":  func() { time.Sleep(time.Hour) },
	} {
		if marker := os.Getenv(env); marker != "" {
			if _, err := os.Stat(marker); os.IsNotExist(err) {
				os.WriteFile(marker, nil, 0o644)
				act()
			}
		}
	}
}

// testRefusal lets tests make a worker answer like a model that declines:
// always (SHOEBOX_WORKER_REFUSE=always) or only to the ordinary prompt
// (=ordinary), as the engine's retry with the strict prompt expects.
func testRefusal(req inference.WorkerRequest) (string, bool) {
	mode := os.Getenv("SHOEBOX_WORKER_REFUSE")
	if req.Op != "extract" || mode == "" || mode == "ordinary" && strings.HasPrefix(req.System, strings.TrimSpace(assets.ReceiptPromptStrict)) {
		return "", false
	}
	return `{"supplier_name": "I'm sorry, but I can't help with personal information.", "date": "", "total": "0.00"}`, true
}

type session struct {
	model *llama.Model
	ctx   *llama.Context
	mtmd  *llama.MtmdContext
	batch int
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

func (s *session) load(req inference.WorkerRequest, resp *inference.WorkerResponse) error {
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
	s.batch = max(req.Batch, 64)
	c, err := llama.NewContextWithModel(m, llama.NewContextParams(max(req.Context, 512), s.batch, 1, max(req.Threads, 1), fa, req.KVType))
	if err != nil {
		return fmt.Errorf("llama.cpp could not make a context: %w", err)
	}
	s.ctx = c
	if req.Projector != "" {
		mt, err := llama.NewMtmdContext(c, req.Projector)
		if err != nil {
			return fmt.Errorf("the projector %s does not fit the model: %w", req.Projector, err)
		}
		s.mtmd = mt
	}
	resp.LoadMS = ms(time.Since(start))
	return nil
}

func (s *session) extract(req inference.WorkerRequest, resp *inference.WorkerResponse) error {
	if s.ctx == nil {
		return errors.New("no model is loaded")
	}
	s.ctx.KvCacheClear()
	prefix, suffix := req.System+"\n", "\n"+req.User+"\n"
	if text, ok := ApplyChatTemplate(s.model, []Message{{"system", req.System}, {"user", ImageMarker + "\n" + req.User}}); ok {
		if i := strings.Index(text, ImageMarker); i >= 0 {
			prefix, suffix = text[:i], text[i+len(ImageMarker):]
		}
	}
	t1 := time.Now()
	var pos, idx int
	if len(req.Image) > 0 {
		if s.mtmd == nil {
			return errors.New("the model has no projector: it cannot read images")
		}
		// mtmd's helper encodes the image and lays out positions for the
		// model's family (M-RoPE, non-causal image attention) itself.
		nPast, nTok, err := EvalPrompt(s.mtmd, s.ctx, prefix+ImageMarker+suffix, req.Image, s.batch)
		if err != nil {
			return err
		}
		pos, idx, resp.PromptTokens = nPast, -1, nTok
	} else {
		toks, err := s.model.Tokenize(prefix+suffix, true, true)
		if err != nil {
			return err
		}
		b, err := llama.NewBatch(s.batch, 1, 0)
		if err != nil {
			return err
		}
		defer b.Free()
		for i := 0; i < len(toks); i += s.batch {
			b.Clear()
			for j := i; j < min(i+s.batch, len(toks)); j++ {
				b.Add(toks[j], nil, j, j == len(toks)-1, 0)
			}
			if err := s.ctx.Decode(b); err != nil {
				return fmt.Errorf("prefill failed at token %d: %w", i, err)
			}
		}
		pos, idx, resp.PromptTokens = len(toks), -1, len(toks)
	}
	resp.PrefillMS = ms(time.Since(t1)) // image encoding included
	tokBatch, err := llama.NewBatch(s.batch, 1, 0)
	if err != nil {
		return err
	}
	defer tokBatch.Free()

	grammar := ""
	if req.Schema != "" {
		g := llama.SchemaToGrammar([]byte(req.Schema))
		if g == nil {
			return errors.New("the output schema could not be turned into a grammar")
		}
		grammar = string(g)
	}
	sampler, err := llama.NewSamplingContext(s.model, llama.SamplingParams{Temp: 0, Seed: 1, Grammar: grammar})
	if err != nil {
		return err
	}
	t2 := time.Now()
	maxTok := max(req.MaxTokens, 16)
	var out []byte
	for n := 0; n < maxTok; n++ {
		tok := sampler.Sample(s.ctx, idx)
		p := tokenProb(s.ctx.GetLogitsIth(idx), tok)
		sampler.Accept(tok, true)
		if s.model.TokenIsEog(tok) {
			break
		}
		piece := s.model.TokenToPiece(tok)
		out = append(out, piece...)
		resp.Pieces = append(resp.Pieces, inference.Piece{Text: piece, P: p})
		tokBatch.Clear()
		tokBatch.Add(tok, nil, pos, true, 0)
		pos++
		if err := s.ctx.Decode(tokBatch); err != nil {
			return fmt.Errorf("decode failed after %d tokens: %w", n, err)
		}
		idx = 0
	}
	resp.DecodeMS = ms(time.Since(t2))
	resp.Output = string(out)
	return nil
}

// tokenProb is the softmax probability of tok under logits; NaN logits give NaN.
func tokenProb(logits []float32, tok int) float32 {
	if tok < 0 || tok >= len(logits) {
		return 0
	}
	maxL := float32(math.Inf(-1))
	for _, l := range logits {
		maxL = max(maxL, l)
	}
	var sum float64
	for _, l := range logits {
		sum += math.Exp(float64(l - maxL))
	}
	return float32(math.Exp(float64(logits[tok]-maxL)) / sum)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// canary decodes hw.CanaryPrompt greedily with no grammar, reporting the text
// and whether any step's logits were NaN or infinite.
func (s *session) canary(resp *inference.WorkerResponse) error {
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
