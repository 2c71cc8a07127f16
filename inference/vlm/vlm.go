package vlm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/shoebox-app/shoebox/assets"
	"github.com/shoebox-app/shoebox/hw"
	"github.com/shoebox-app/shoebox/inference"
	"github.com/shoebox-app/shoebox/inference/fields"
	"github.com/shoebox-app/shoebox/inference/vlm/protocol"
	"github.com/shoebox-app/shoebox/internal/plain"
	"github.com/shoebox-app/shoebox/receipt"
)

// Options configure the vision-language-model engine.
type Options struct {
	Model, Projector string
	Plan             hw.Plan // threads, layers, split, flash attention, KV type, environment
	// Request is what Plan was made from; with it, a load that fails the
	// canary steps down (split, one GPU, fewer layers, CPU) and tries again.
	Request *hw.Request
	Locale  receipt.Locale
	// Worker is the command that starts a worker; default: this executable with "worker".
	Worker      []string
	WorkerEnv   []string
	PageTimeout time.Duration // default 5 minutes
	MaxTokens   int           // default DefaultMaxTokens
	// Family is the model family the prompt is laid out for ("qwen3vl",
	// "gemma3"…, see assets/prompts/families.json); "" reads it from the
	// projector's header.
	Family string
	// OnEvent hears about restarts and retries, for logs and the UI.
	OnEvent func(string)
	// IdleUnload stops the worker (freeing GPU and RAM) after this long
	// without a page; the next page loads the model again. 0: 10 minutes;
	// negative: never.
	IdleUnload time.Duration
}

// Engine (the VLM) reads receipts with a vision-language model in a `shoebox worker`
// child process: a crash, abort or hang in llama.cpp kills only the worker,
// which is restarted and the page retried once.
type Engine struct {
	opt Options

	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tailBuffer
	nextID int64
	done   chan struct{}
	idle   *time.Timer
	// idleGen counts armIdle calls (under mu).
	idleGen int

	// planMu guards opt.Plan, which a fault during reading steps down;
	// gen counts those steps, so that pages of one faulty request step
	// down once.
	planMu sync.Mutex
	gen    int

	// Pages wait in queue for the dispatcher, which sends up to
	// Plan.Parallel of them to the worker as one request.
	queue     chan *job
	closed    chan struct{}
	closeOnce sync.Once
}

// job is one page waiting for the worker.
type job struct {
	ctx   context.Context
	page  protocol.PageRequest
	index int // page number from 0, for messages
	reply chan jobResult
}

type jobResult struct {
	resp  protocol.PageResponse
	batch int // pages in the request that read it
	gen   int // the plan generation that read it
	err   error
}

// gatherWindow is how long the dispatcher waits for more pages to join a
// request when the plan reads several at once: short beside a page's
// seconds, long enough for callers woken by the previous request.
const gatherWindow = 25 * time.Millisecond

// New starts a worker and loads the model.
func New(opt Options) (*Engine, error) {
	if opt.PageTimeout <= 0 {
		opt.PageTimeout = 5 * time.Minute
	}
	if opt.MaxTokens <= 0 {
		opt.MaxTokens = DefaultMaxTokens
	}
	if opt.Family == "" && opt.Projector != "" {
		opt.Family = ProjectorFamily(opt.Projector)
	}
	if opt.IdleUnload == 0 {
		opt.IdleUnload = 10 * time.Minute
	}
	if len(opt.Worker) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		opt.Worker = []string{exe, "worker"}
	}
	v := &Engine{opt: opt, queue: make(chan *job), closed: make(chan struct{})}
	for {
		err := v.start()
		if err == nil {
			go v.dispatch()
			return v, nil
		}
		if !errors.Is(err, ErrHardwareFault) || opt.Request == nil {
			return nil, err
		}
		next, ok := hw.StepDown(*opt.Request, v.opt.Plan, err.Error())
		if !ok {
			return nil, fmt.Errorf("%w on every configuration, the CPU included: the model file may be damaged", err)
		}
		v.event("%s", next.Steps[len(next.Steps)-1])
		v.opt.Plan = next
	}
}

// Plan is the plan the engine runs with (after any step-down).
func (v *Engine) Plan() hw.Plan {
	v.planMu.Lock()
	defer v.planMu.Unlock()
	return v.opt.Plan
}

// stepDown moves to the next safer plan after output read with plan
// generation gen showed a hardware or precision fault, and starts the
// worker on it (stepping on while the canary still fails). Pages of the
// same request that saw the fault find the step taken and only retry.
func (v *Engine) stepDown(gen int, why string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.gen != gen {
		return nil
	}
	return v.stepDownLocked(why)
}

// stepDownLocked is stepDown with mu held.
func (v *Engine) stepDownLocked(why string) error {
	if v.opt.Request == nil {
		return errors.New("no safer configuration is known for this model")
	}
	for {
		next, ok := hw.StepDown(*v.opt.Request, v.Plan(), why)
		if !ok {
			return errors.New("it happened on the CPU too: the model file may be damaged")
		}
		v.event("%s", next.Steps[len(next.Steps)-1])
		v.kill()
		v.planMu.Lock()
		v.opt.Plan = next
		v.gen++
		v.planMu.Unlock()
		err := v.start()
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrHardwareFault) {
			return err
		}
		why = err.Error()
	}
}

// Name is "vlm".
func (v *Engine) Name() string { return "vlm" }

func (v *Engine) event(format string, args ...any) {
	if v.opt.OnEvent != nil {
		v.opt.OnEvent(fmt.Sprintf(format, args...))
	}
}

// start launches the worker and loads the model in it.
func (v *Engine) start() error {
	cmd := exec.Command(v.opt.Worker[0], v.opt.Worker[1:]...)
	env := os.Environ()
	p := v.Plan()
	for _, u := range p.UnsetEnv {
		env = withoutVar(env, u)
	}
	env = withoutVar(env, "GGML_CUDA_P2P") // set only when the plan says so: llama.cpp reads its mere presence
	cmd.Env = append(append(env, p.Env...), v.opt.WorkerEnv...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	v.stderr = &tailBuffer{max: 8 << 10}
	cmd.Stderr = v.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("the model worker could not start: %w", err)
	}
	v.cmd, v.in, v.out, v.done = cmd, in, bufio.NewReaderSize(out, 1<<20), make(chan struct{})
	go func(done chan struct{}) {
		_ = cmd.Wait() // how it ended is read from what it answered, or did not
		close(done)
	}(v.done)
	split := make([]float32, 0, len(p.TensorSplit))
	for _, n := range p.TensorSplit {
		split = append(split, float32(n))
	}
	_, err = v.call(context.Background(), protocol.WorkerRequest{
		Op: "load", Model: v.opt.Model, Projector: v.opt.Projector, Threads: max(p.Threads, 1),
		GPULayers: p.GPULayers, MainGPU: p.MainGPU, TensorSplit: split, Context: max(p.Context, 4096), Parallel: max(p.Parallel, 1), Batch: max(p.Batch, 512),
		FlashAttention: p.FlashAttention, KVType: p.KVType, ProjectorOnGPU: p.Projector == "gpu",
	}, 10*time.Minute)
	if err != nil {
		v.kill()
		return err
	}
	// The canary: a sound model answers a fixed prompt with ordinary text.
	c, err := v.call(context.Background(), protocol.WorkerRequest{Op: "canary"}, 5*time.Minute)
	if err == nil {
		var bad []float32
		if c.BadLogits {
			bad = []float32{float32(math.NaN())}
		}
		if fault := hw.JudgeCanary(c.Output, bad); fault != nil {
			err = fmt.Errorf("%w: %w", ErrHardwareFault, fault)
		}
	}
	if err != nil {
		v.kill()
		return err
	}
	return nil
}

func (v *Engine) kill() {
	if v.cmd != nil && v.cmd.Process != nil {
		_ = v.cmd.Process.Kill() // fails only when it has already exited
		<-v.done
	}
	v.cmd = nil
}

// errWorkerDied marks a crash or hang, after which the worker is restarted.
var errWorkerDied = errors.New("the model worker stopped")

// call sends one request and waits for its answer, the worker's death, the
// timeout or ctx.
func (v *Engine) call(ctx context.Context, req protocol.WorkerRequest, timeout time.Duration) (protocol.WorkerResponse, error) {
	v.nextID++
	req.V, req.ID = protocol.ProtocolVersion, v.nextID
	line, _ := json.Marshal(req)
	if _, err := v.in.Write(append(line, '\n')); err != nil {
		return protocol.WorkerResponse{}, fmt.Errorf("%w: %w", errWorkerDied, err)
	}
	type answer struct {
		resp protocol.WorkerResponse
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		b, err := v.out.ReadBytes('\n')
		if err != nil {
			ch <- answer{err: fmt.Errorf("%w (%s)", errWorkerDied, lastLine(v.stderr.String()))}
			return
		}
		var r protocol.WorkerResponse
		if err := json.Unmarshal(b, &r); err != nil {
			ch <- answer{err: fmt.Errorf("the model worker answered nonsense: %w", err)}
			return
		}
		ch <- answer{resp: r}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case a := <-ch:
		if a.err != nil {
			v.kill()
			return a.resp, a.err
		}
		if !a.resp.OK {
			return a.resp, errors.New(a.resp.Error)
		}
		return a.resp, nil
	case <-timer.C:
		v.kill()
		return protocol.WorkerResponse{}, fmt.Errorf("%w: no answer within %s", errWorkerDied, timeout)
	case <-ctx.Done():
		v.kill() // the only way to stop llama.cpp mid-page
		return protocol.WorkerResponse{}, ctx.Err()
	}
}

// Extract reads one page. Pages from concurrent callers are read together
// as parallel sequences when the plan allows (Plan.Parallel); a crash or
// hang restarts the worker and retries the page once.
func (v *Engine) Extract(ctx context.Context, page inference.Page) (inference.Result, error) {
	start := time.Now()
	var img bytes.Buffer
	// Lossless and quick: the default PNG compression took most of the
	// "image encode" time on small models.
	enc := png.Encoder{CompressionLevel: png.NoCompression}
	if err := enc.Encode(&img, page.Image); err != nil {
		return inference.Result{}, err
	}
	req := BuildPrompt(v.opt.Family, assets.ReceiptPrompt, page)
	req.Image = img.Bytes()
	res, r, err := v.read(ctx, req, page)
	if errors.Is(err, ErrHardwareFault) {
		// Broken arithmetic on this device or precision: a safer plan, and
		// the page once more on it.
		v.event("page %d: %v: stepping down to a safer configuration", page.Index+1, err)
		if serr := v.stepDown(res.gen, err.Error()); serr != nil {
			return inference.Result{Raw: res.resp.Output}, fmt.Errorf("%w; no safer configuration helped: %w", err, serr)
		}
		res, r, err = v.read(ctx, req, page)
	}
	if err == nil && Refused(&r) {
		// Some models decline anything with a name or address on it; the
		// stricter prompt spells out that this is the business's own tax
		// record. One retry: a second refusal is the page's answer.
		v.event("the model declined page %d (%q): asking again with the strict bookkeeping prompt", page.Index+1, plain.Clip(res.resp.Output, 80))
		strict := BuildPrompt(v.opt.Family, assets.ReceiptPromptStrict, page)
		strict.Image = req.Image
		res, r, err = v.read(ctx, strict, page)
		if err == nil && Refused(&r) {
			return inference.Result{Raw: res.resp.Output, Engine: "vlm"}, fmt.Errorf("%w twice, the second time with the strict prompt: %s", ErrRefused, plain.Clip(res.resp.Output, 120))
		}
	}
	resp := res.resp
	if err != nil {
		return inference.Result{Raw: resp.Output}, err
	}
	t := inference.Timings{
		ImageEncode: msDur(resp.EncodeMS), Prefill: msDur(resp.PrefillMS), Decode: msDur(resp.DecodeMS),
		PromptTokens: resp.PromptTokens, OutputTokens: len(resp.Pieces), Total: time.Since(start), Batch: res.batch, FullGrammarSteps: resp.FullGrammarSteps, GrammarRescue: msDur(resp.GrammarRescueMS), Forward: msDur(resp.ForwardMS),
	}
	if resp.DecodeMS > 0 {
		t.TokensPerSec = float64(len(resp.Pieces)) / (resp.DecodeMS / 1000)
	}
	if len(page.Words) > 0 {
		fields.Ground(&r, page.Words)
	}
	if _, cut := CloseTruncated(resp.Output); cut {
		v.event("page %d: the answer reached the limit of %d tokens and was closed after its last whole value: lines after it may be missing", page.Index+1, v.opt.MaxTokens)
	}
	return inference.Result{Receipt: r, Raw: resp.Output, Words: page.Words, Timings: t, Engine: "vlm"}, nil
}

// read queues one page for the dispatcher, waits for its answer and
// parses it.
func (v *Engine) read(ctx context.Context, req protocol.PageRequest, page inference.Page) (jobResult, receipt.Receipt, error) {
	j := &job{ctx: ctx, page: req, index: page.Index, reply: make(chan jobResult, 1)}
	select {
	case v.queue <- j:
	case <-ctx.Done():
		return jobResult{}, receipt.Receipt{}, ctx.Err()
	case <-v.closed:
		return jobResult{}, receipt.Receipt{}, errors.New("the vision engine has been closed")
	}
	var res jobResult
	select {
	case res = <-j.reply:
	case <-ctx.Done():
		return jobResult{}, receipt.Receipt{}, ctx.Err()
	}
	resp := res.resp
	switch {
	case res.err != nil:
		return res, receipt.Receipt{}, res.err
	case resp.Error != "":
		return res, receipt.Receipt{}, errors.New(resp.Error)
	case resp.BadLogits:
		return res, receipt.Receipt{}, fmt.Errorf("%w: the model computed NaN or infinite logits", ErrHardwareFault)
	}
	if fault := JudgeOutput(resp.Output); fault != nil {
		return res, receipt.Receipt{}, fault
	}
	r, err := ParseModelJSON(resp.Output, resp.Pieces, v.opt.Locale)
	return res, r, err
}

// dispatch sends queued pages to the worker, up to Plan.Parallel at a
// time, until the engine is closed.
func (v *Engine) dispatch() {
	for {
		var first *job
		select {
		case first = <-v.queue:
		case <-v.closed:
			return
		}
		batch := []*job{first}
		if par := max(v.Plan().Parallel, 1); par > 1 {
			window := time.NewTimer(gatherWindow)
		gather:
			for len(batch) < par {
				select {
				case j := <-v.queue:
					batch = append(batch, j)
				case <-window.C:
					break gather
				case <-v.closed:
					break gather
				}
			}
			window.Stop()
		}
		v.runBatch(batch)
	}
}

// runBatch reads a batch of pages and answers each page's caller. When the
// worker dies during a batch of several, any one page may be the cause, so
// each is retried alone: a page that kills the worker fails by itself.
func (v *Engine) runBatch(batch []*job) {
	v.mu.Lock()
	defer v.mu.Unlock()
	select {
	case <-v.closed: // Close won the race for these pages: no new worker
		for _, j := range batch {
			j.reply <- jobResult{err: errors.New("the vision engine has been closed")}
		}
		return
	default:
	}
	defer v.armIdle()
	live := batch[:0]
	for _, j := range batch {
		if err := j.ctx.Err(); err != nil {
			j.reply <- jobResult{err: err}
		} else {
			live = append(live, j)
		}
	}
	if len(live) == 0 {
		return
	}
	gen := v.gen
	resps, err := v.send(live)
	if errors.Is(err, errWorkerDied) && live[0].ctx.Err() == nil {
		if len(live) == 1 {
			v.event("the model worker stopped on page %d (%v): retrying", live[0].index+1, err)
		} else {
			v.event("the model worker stopped while reading %d pages together (%v): retrying them one at a time", len(live), err)
		}
		for _, j := range live {
			resp, err := v.retryAlone(j)
			j.reply <- jobResult{resp: resp, batch: 1, gen: v.gen, err: err}
		}
		return
	}
	for i, j := range live {
		if err != nil {
			j.reply <- jobResult{err: err}
		} else {
			j.reply <- jobResult{resp: resps[i], batch: len(live), gen: gen}
		}
	}
}

// retryAlone reads one page by itself after the worker died on it (or
// beside it); when the worker dies on it again, the plan steps down (a
// crash in a GPU back-end, out of memory) and the page gets a last try.
// Called with mu held.
func (v *Engine) retryAlone(j *job) (protocol.PageResponse, error) {
	r, err := v.send([]*job{j})
	if errors.Is(err, errWorkerDied) && j.ctx.Err() == nil && v.opt.Request != nil {
		v.event("the model worker stopped on page %d again (%v): stepping down to a safer configuration", j.index+1, err)
		if serr := v.stepDownLocked("the worker crashed twice on one page"); serr != nil {
			return protocol.PageResponse{}, fmt.Errorf("%w; no safer configuration: %w", err, serr)
		}
		r, err = v.send([]*job{j})
	}
	if err != nil {
		return protocol.PageResponse{}, err
	}
	return r[0], nil
}

// send makes one extract request of the jobs' pages, starting the worker
// first if it is not running; called with mu held. The request is
// cancelled (and the worker stopped) only when every page's caller has
// given up.
func (v *Engine) send(jobs []*job) ([]protocol.PageResponse, error) {
	if v.cmd == nil {
		v.event("starting the model worker")
		if err := v.start(); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for _, j := range jobs {
			select {
			case <-j.ctx.Done():
			case <-ctx.Done():
				return
			}
		}
		cancel()
	}()
	req := protocol.WorkerRequest{Op: "extract", Schema: assets.ReceiptSchema, MaxTokens: v.opt.MaxTokens}
	for _, j := range jobs {
		req.Pages = append(req.Pages, j.page)
	}
	resp, err := v.call(ctx, req, v.opt.PageTimeout*time.Duration(len(jobs)))
	if err != nil {
		return nil, err
	}
	if len(resp.Pages) != len(jobs) {
		return nil, fmt.Errorf("the model worker answered %d pages of %d", len(resp.Pages), len(jobs))
	}
	return resp.Pages, nil
}

// ErrRefused marks a page the model declined to read.
var ErrRefused = errors.New("the model declined to read the page (or read nothing on it)")

// Close stops the worker; pages still queued get an error.
func (v *Engine) Close() error {
	v.closeOnce.Do(func() { close(v.closed) })
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.idle != nil {
		v.idle.Stop()
	}
	if v.in != nil {
		v.in.Close()
	}
	if v.cmd != nil {
		select {
		case <-v.done:
		case <-time.After(5 * time.Second):
			v.kill()
		}
	}
	return nil
}

// JudgeOutput rejects output that broken arithmetic produces: empty, or one
// character over and over ("!!!!").
func JudgeOutput(out string) error {
	if err := hw.JudgeCanary(out, nil); err != nil {
		return fmt.Errorf("%w: %w", ErrHardwareFault, err)
	}
	return nil
}

// ErrHardwareFault marks output that says the device computes wrongly; the
// caller steps the plan down (hw.StepDown) and tries again.
var ErrHardwareFault = errors.New("hardware or precision fault")

func msDur(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

func withoutVar(env []string, name string) []string {
	out := env[:0:0]
	for _, e := range env {
		if !strings.HasPrefix(e, name+"=") {
			out = append(out, e)
		}
	}
	return out
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "no message"
	}
	return s
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// armIdle (re)starts the idle timer after a page; called with mu held.
func (v *Engine) armIdle() {
	if v.opt.IdleUnload < 0 {
		return
	}
	if v.idle != nil {
		v.idle.Stop()
	}
	// A timer that fired while a page was being read waits for mu; the
	// generation tells it that the engine was busy since.
	v.idleGen++
	gen := v.idleGen
	v.idle = time.AfterFunc(v.opt.IdleUnload, func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		if gen == v.idleGen {
			v.unloadLocked(fmt.Sprintf("after %s idle", v.opt.IdleUnload))
		}
	})
}

// Unload stops the worker now, freeing the model's GPU and host memory;
// the next page loads it again. A page being read finishes first.
func (v *Engine) Unload() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.unloadLocked("on request")
}

func (v *Engine) unloadLocked(why string) {
	if v.cmd == nil {
		return
	}
	v.event("unloading the model %s", why)
	v.in.Close()
	select {
	case <-v.done:
	case <-time.After(5 * time.Second):
	}
	v.kill()
}

// Loaded reports whether a worker holds the model now.
func (v *Engine) Loaded() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.cmd != nil
}
