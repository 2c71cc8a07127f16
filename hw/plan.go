package hw

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/shoebox-app/shoebox/internal/plain"
)

// Variant is one weights file of a model: a quantization or precision.
type Variant struct {
	Name  string `json:"name"`  // Q4_K_M, Q5_K_M, Q6_K, Q8_0, F16, BF16, …
	Bytes uint64 `json:"bytes"` // size of the weights file
}

// ModelFacts are what the planner needs to know of a model, read from its
// GGUF headers (FactsFromGGUF) or a catalogue entry.
type ModelFacts struct {
	Name     string    `json:"name"`
	Layers   int       `json:"layers"`     // transformer blocks
	EmbedDim int       `json:"embed_dim"`  // hidden size
	HeadsKV  int       `json:"heads_kv"`   // key/value heads
	HeadDimK int       `json:"head_dim_k"` // per head
	HeadDimV int       `json:"head_dim_v"`
	Variants []Variant `json:"variants"`
	// NonLayerFraction is the share of the weights outside the blocks
	// (token embeddings and output head); 0 means "assume 8%".
	NonLayerFraction float64 `json:"non_layer_fraction,omitempty"`
	ProjectorBytes   uint64  `json:"projector_bytes"` // the vision projector (mmproj) file
}

// Overrides are an expert's choices; the planner follows them and warns when
// one is risky.
type Overrides struct {
	Variant        string `json:"variant,omitempty"`
	GPUs           []int  `json:"gpus,omitempty"`       // GPU indexes to use, in order
	GPULayers      *int   `json:"gpu_layers,omitempty"` // layers to offload
	FlashAttention string `json:"flash_attention,omitempty"`
	KVType         string `json:"kv_type,omitempty"`
	CPUOnly        bool   `json:"cpu_only,omitempty"`
}

// Request is everything MakePlan decides from.
type Request struct {
	Machine   Machine    `json:"machine"`
	Model     ModelFacts `json:"model"`
	Context   int        `json:"context"`  // tokens per sequence; 0 means 8192
	Parallel  int        `json:"parallel"` // pages read at once as parallel sequences; 0: the planner chooses
	Overrides Overrides  `json:"overrides"`
}

// Plan is how a model runs on a machine, with the reasons in plain words.
type Plan struct {
	Variant        string   `json:"variant"`
	Devices        []int    `json:"devices"`      // GPU indexes, in split order; empty for CPU
	GPULayers      int      `json:"gpu_layers"`   // blocks on GPUs (of Layers)
	TotalLayers    int      `json:"total_layers"` //
	TensorSplit    []int    `json:"tensor_split"` // layers per device, in Devices order
	MainGPU        int      `json:"main_gpu"`     // index of the GPU holding the projector and scratch
	SplitMode      string   `json:"split_mode"`   // "layer" or "none": never "row"
	Projector      string   `json:"projector"`    // "gpu" (on MainGPU) or "cpu"
	FlashAttention string   `json:"flash_attention"`
	KVType         string   `json:"kv_type"` // f16, q8_0
	Threads        int      `json:"threads"`
	Batch          int      `json:"batch"`
	Context        int      `json:"context"`
	Parallel       int      `json:"parallel"`
	Env            []string `json:"env,omitempty"`       // KEY=VALUE for the worker
	UnsetEnv       []string `json:"unset_env,omitempty"` // variables the worker must not inherit
	// EstimateMiB is the expected memory use per device in Devices order.
	EstimateMiB    []uint64 `json:"estimate_mib"`
	CPUMiB         uint64   `json:"cpu_mib"`
	ReceiptsPerMin float64  `json:"receipts_per_min"`
	Reasons        []string `json:"reasons"`
	Warnings       []string `json:"warnings,omitempty"`
	Steps          []string `json:"steps,omitempty"` // fallbacks taken at load time
}

// OnCPU reports whether the plan runs entirely on the CPU.
func (p Plan) OnCPU() bool { return len(p.Devices) == 0 || p.GPULayers == 0 }

// Summary is a one-line description: "Q4_K_M on 2× NVIDIA L40S".
func (p Plan) Summary(m Machine) string {
	if p.OnCPU() {
		return fmt.Sprintf("%s on the CPU (%s)", p.Variant, plain.Count(p.Threads, "thread", "threads"))
	}
	names := map[string]int{}
	var order []string
	for _, d := range p.Devices {
		n := gpuName(m, d)
		if names[n] == 0 {
			order = append(order, n)
		}
		names[n]++
	}
	var parts []string
	for _, n := range order {
		if names[n] > 1 {
			parts = append(parts, fmt.Sprintf("%d× %s", names[n], n))
		} else {
			parts = append(parts, n)
		}
	}
	s := fmt.Sprintf("%s on %s", p.Variant, strings.Join(parts, " + "))
	if p.GPULayers < p.TotalLayers {
		s += fmt.Sprintf(" (%d of %d layers; the rest on the CPU)", p.GPULayers, p.TotalLayers)
	}
	return s
}

func gpuName(m Machine, index int) string {
	for _, g := range m.GPUs {
		if g.Index == index {
			return g.Name
		}
	}
	return fmt.Sprintf("GPU %d", index)
}

// Memory rules, in MiB.
const (
	ReserveMiB        = 457  // CUDA context and cuBLAS workspace per GPU
	ProjectorExtraMiB = 1024 // the projector's activations on its GPU
	Headroom          = 0.80 // use at most this share of a GPU's free memory
	// defaultContext holds a page: the image (a Qwen-VL projector allows up
	// to 4096 tokens; a receipt takes 500 to 2,500), the OCR hint (up to
	// 1,500 tokens on a long receipt) and the answer (vlm.DefaultMaxTokens,
	// 3,328).
	defaultContext = 8192
	defaultBatch   = 512
)

var precisionRank = map[string]int{
	"BF16": 100, "F32": 99, "F16": 98, "Q8_0": 80, "Q6_K": 60, "Q5_K_M": 55, "Q5_K_S": 54, "Q5_0": 50,
	"Q4_K_M": 45, "Q4_K_S": 44, "Q4_0": 40, "IQ4_XS": 39, "Q3_K_M": 30, "Q3_K_L": 31, "Q2_K": 20,
}

func rank(v string) int { return precisionRank[strings.ToUpper(v)] }

func mib(b uint64) uint64 { return (b + (1<<20 - 1)) >> 20 }

func gb(miB uint64) string { return fmt.Sprintf("%.1f GB", float64(miB)/1024) }

// kvBytesPerToken is the KV cache size per token per layer.
func kvBytesPerToken(m ModelFacts, kv string) float64 {
	per := 2.0
	switch kv {
	case "q8_0":
		per = 34.0 / 32
	case "q4_0":
		per = 18.0 / 32
	}
	heads, dk, dv := m.HeadsKV, m.HeadDimK, m.HeadDimV
	if heads == 0 {
		heads = 8
	}
	if dk == 0 {
		dk = 128
	}
	if dv == 0 {
		dv = dk
	}
	return float64(heads*(dk+dv)) * per
}

// graphMiB estimates llama.cpp's compute buffer for one GPU.
func graphMiB(m ModelFacts, batch int) uint64 {
	embed := max(m.EmbedDim, 1024)
	return 128 + uint64(batch*embed*4*10)>>20
}

func flashAttentionOK(g GPU) (bool, string) {
	switch {
	case g.CC() == 72:
		return false, fmt.Sprintf("%s (compute capability 7.2, Jetson Xavier) gives wrong results with flash attention", g.Name)
	case g.CC() < 60:
		return false, fmt.Sprintf("%s (compute capability %d.%d) has no flash attention kernels", g.Name, g.CCMajor, g.CCMinor)
	}
	return true, ""
}

type layout struct {
	devs      []GPU
	split     []int
	estimate  []uint64
	projector string
	kv        string
	fa        bool
	layers    int
}

// fit tries to place all (or, when partial, as many as fit) layers of
// variant v on devs.
func fit(req Request, v Variant, devs []GPU, kv string, projOnGPU, partial bool) (layout, bool) {
	m := req.Model
	lay := layout{devs: devs, kv: kv, fa: true, projector: "cpu"}
	for _, g := range devs {
		if ok, _ := flashAttentionOK(g); !ok {
			lay.fa = false
		}
	}
	if kv != "f16" && (!lay.fa || m.HeadDimK%32 != 0 || m.HeadDimV%32 != 0 && m.HeadDimV != 0) {
		return lay, false
	}
	nonLayerFrac := m.NonLayerFraction
	if nonLayerFrac <= 0 {
		nonLayerFrac = 0.08
	}
	layers := max(m.Layers, 1)
	perLayer := float64(v.Bytes) * (1 - nonLayerFrac) / float64(layers)
	perLayer += kvBytesPerToken(m, kv) * float64(req.Context*req.Parallel)
	nonLayer := float64(v.Bytes) * nonLayerFrac
	graph := graphMiB(m, defaultBatch)
	caps := make([]int, len(devs))
	budgets := make([]float64, len(devs))
	total := 0
	for i, g := range devs {
		budget := float64(g.FreeMiB)*Headroom - float64(ReserveMiB+graph)
		if i == 0 && projOnGPU {
			budget -= float64(mib(m.ProjectorBytes) + ProjectorExtraMiB)
		}
		if i == len(devs)-1 {
			budget -= nonLayer / (1 << 20) // the output head sits with the last block
		}
		budgets[i] = budget
		if budget > 0 {
			caps[i] = int(budget * (1 << 20) / perLayer)
		}
		total += caps[i]
	}
	if projOnGPU && budgets[0] < 0 {
		return lay, false
	}
	if total < layers && !partial {
		return lay, false
	}
	want := min(total, layers)
	if want <= 0 || budgets[len(devs)-1] < 0 {
		return lay, false
	}
	// Spread layers in proportion to each GPU's room, never past its cap.
	split := make([]int, len(devs))
	assigned := 0
	for i := range devs {
		split[i] = min(caps[i], int(math.Floor(float64(want)*float64(caps[i])/float64(total))))
		assigned += split[i]
	}
	for i := 0; assigned < want; i = (i + 1) % len(devs) {
		if split[i] < caps[i] {
			split[i]++
			assigned++
		}
	}
	lay.split, lay.layers = split, want
	lay.estimate = make([]uint64, len(devs))
	for i, g := range devs {
		est := float64(ReserveMiB+graph) + float64(split[i])*perLayer/(1<<20)
		if i == 0 && projOnGPU {
			est += float64(mib(m.ProjectorBytes) + ProjectorExtraMiB)
		}
		if i == len(devs)-1 && want == layers {
			est += nonLayer / (1 << 20)
		}
		lay.estimate[i] = uint64(math.Ceil(est))
		_ = g
	}
	if projOnGPU {
		lay.projector = "gpu"
	}
	return lay, true
}

// AutoParallel is how many pages a plan reads at once when the request
// leaves it to the planner and the model sits wholly on GPUs.
const AutoParallel = 4

// MakePlan picks the fastest configuration that gives correct output: the
// highest-precision variant that fits with headroom, on one GPU when it fits
// there, else split by layers (never rows) across GPUs by free memory, else
// partly offloaded, else on the CPU. It is a pure function.
//
// With Parallel 0 it reads AutoParallel pages at once when their KV cache
// fits beside the same variant wholly on GPUs, else one: batching keeps a
// GPU busy between one page's tokens, but never at the cost of precision
// or of layers on the CPU.
func MakePlan(req Request) Plan {
	if req.Parallel > 0 {
		return makePlan(req)
	}
	req.Parallel = 1
	one := makePlan(req)
	if one.OnCPU() || one.GPULayers < one.TotalLayers {
		return one
	}
	req.Parallel = AutoParallel
	several := makePlan(req)
	if several.Variant != one.Variant || several.KVType != one.KVType || several.OnCPU() || several.GPULayers < several.TotalLayers || several.Projector != one.Projector || len(several.Devices) > len(one.Devices) {
		one.Reasons = append(one.Reasons, fmt.Sprintf("One page at a time: the memory for %d pages at once would cost precision (weights or KV cache), layers on the CPU or another GPU.", AutoParallel))
		return one
	}
	several.Reasons = append(several.Reasons, fmt.Sprintf("%d pages are read at once as parallel sequences: their KV cache fits beside the weights, and one decode step serves all of them.", AutoParallel))
	return several
}

func makePlan(req Request) Plan {
	if req.Context <= 0 {
		req.Context = defaultContext
	}
	m := req.Model
	p := Plan{
		TotalLayers: m.Layers, SplitMode: "none", KVType: "f16", Batch: defaultBatch, Context: req.Context, Parallel: req.Parallel,
		Threads: max(1, req.Machine.CPUCores-1), FlashAttention: "auto", Projector: "cpu", MainGPU: 0,
	}
	p.Reasons = append(p.Reasons, req.Machine.Notes...)
	variants := slices.Clone(m.Variants)
	slices.SortStableFunc(variants, func(a, b Variant) int { return cmp.Compare(rank(b.Name), rank(a.Name)) })
	if o := req.Overrides.Variant; o != "" {
		var keep []Variant
		for _, v := range variants {
			if strings.EqualFold(v.Name, o) {
				keep = append(keep, v)
			}
		}
		if len(keep) == 0 {
			p.Warnings = append(p.Warnings, fmt.Sprintf("variant %s is not available for %s: choosing automatically", o, m.Name))
		} else {
			variants = keep
			p.Reasons = append(p.Reasons, fmt.Sprintf("Variant %s was chosen in settings.", keep[0].Name))
		}
	}
	if len(variants) == 0 {
		p.Warnings = append(p.Warnings, "the model lists no weights files")
		return p
	}

	gpus := usableGPUs(req, &p)
	if len(gpus) > 0 && !req.Overrides.CPUOnly {
		if planned, ok := planGPU(req, variants, gpus, &p); ok {
			return finish(req, planned)
		}
	}
	return finish(req, planCPU(req, variants, p))
}

func usableGPUs(req Request, p *Plan) []GPU {
	if req.Overrides.CPUOnly {
		p.Reasons = append(p.Reasons, "Running on the CPU, as chosen in settings.")
		return nil
	}
	var gpus []GPU
	for _, g := range req.Machine.GPUs {
		if len(req.Overrides.GPUs) > 0 && !slices.Contains(req.Overrides.GPUs, g.Index) {
			continue
		}
		if g.CC() < 50 {
			p.Reasons = append(p.Reasons, fmt.Sprintf("%s (compute capability %d.%d) is too old for llama.cpp's CUDA back-end and is not used.", g.Name, g.CCMajor, g.CCMinor))
			continue
		}
		gpus = append(gpus, g)
	}
	if len(req.Overrides.GPUs) == 0 {
		slices.SortStableFunc(gpus, func(a, b GPU) int { return cmp.Compare(b.FreeMiB, a.FreeMiB) })
	}
	return gpus
}

func planGPU(req Request, variants []Variant, gpus []GPU, base *Plan) (Plan, bool) {
	m := req.Model
	minCC := slices.MinFunc(gpus, func(a, b GPU) int { return cmp.Compare(a.CC(), b.CC()) })
	kvTypes := []string{"f16", "q8_0"}
	if req.Overrides.KVType != "" {
		kvTypes = []string{req.Overrides.KVType}
	}
	try := func(v Variant, devs []GPU, projOnGPU bool) (layout, string, bool) {
		if strings.EqualFold(v.Name, "BF16") && slices.ContainsFunc(devs, func(g GPU) bool { return g.CC() < 80 }) {
			return layout{}, "", false
		}
		for _, kv := range kvTypes {
			if lay, ok := fit(req, v, devs, kv, projOnGPU, false); ok {
				return lay, kv, true
			}
		}
		return layout{}, "", false
	}
	bf16Skipped := false
	for _, v := range variants {
		if strings.EqualFold(v.Name, "BF16") && minCC.CC() < 80 {
			bf16Skipped = true
		}
	}
	single := gpus[:1]
	for _, projOnGPU := range []bool{true, false} {
		for _, v := range variants {
			if lay, kv, ok := try(v, single, projOnGPU); ok {
				p := fromLayout(*base, v, lay, req)
				p.Reasons = append(p.Reasons, fmt.Sprintf("%s %s (%s) fits in %.0f%% of the free memory of one %s (%s free): one GPU needs no copies between GPUs.",
					m.Name, v.Name, gb(mib(v.Bytes)), Headroom*100, single[0].Name, gb(single[0].FreeMiB)))
				return explain(p, req, v, variants, kv, bf16Skipped, minCC), true
			}
			// Split over as few GPUs as hold it: layers run one GPU after
			// another, so more GPUs add copies, not speed.
			for k := 2; k <= len(gpus); k++ {
				if lay, kv, ok := try(v, gpus[:k], projOnGPU); ok {
					// Q8_0 is near-lossless and one GPU copies nothing
					// between GPUs (the seeds' "!!!!" came from splits):
					// unless the variant was chosen, a Q8_0 that fits one
					// GPU wins over a 16-bit split.
					if q8, ok := preferQ8(req, variants, v); ok {
						if lay1, kv1, ok := try(q8, single, projOnGPU); ok {
							p := fromLayout(*base, q8, lay1, req)
							p.Reasons = append(p.Reasons, fmt.Sprintf("%s %s (%s) would need its layers split across %d GPUs, but %s (%s) fits in %.0f%% of the free memory of one %s (%s free): Q8_0 is near-lossless, and one GPU needs no copies between GPUs (splits gave the seeds' \"!!!!\" output). Choose %s in settings to split it instead.",
								m.Name, v.Name, gb(mib(v.Bytes)), len(lay.devs), q8.Name, gb(mib(q8.Bytes)), Headroom*100, single[0].Name, gb(single[0].FreeMiB), v.Name))
							p = explain(p, req, q8, variants, kv1, bf16Skipped, minCC)
							p.Reasons = slices.DeleteFunc(p.Reasons, func(r string) bool { return strings.HasPrefix(r, "Higher-precision variants") })
							return p, true
						}
					}
					p := fromLayout(*base, v, lay, req)
					p.Reasons = append(p.Reasons, fmt.Sprintf("%s %s (%s) does not fit on one GPU, so its layers are split across %d GPUs in order of free memory (layer split; row split is never used).",
						m.Name, v.Name, gb(mib(v.Bytes)), len(p.Devices)))
					return explain(p, req, v, variants, kv, bf16Skipped, minCC), true
				}
			}
		}
	}
	// Partial offload: the variant that puts the largest share of its layers on the GPUs.
	var best layout
	var bestV Variant
	for _, v := range variants {
		if strings.EqualFold(v.Name, "BF16") && minCC.CC() < 80 {
			continue
		}
		lay, ok := fit(req, v, gpus, "f16", false, true)
		if ok && (lay.layers > best.layers || best.layers == 0) {
			if req.Overrides.GPULayers == nil && lay.layers*100 < max(m.Layers, 1)*10 {
				continue // under a tenth on the GPU is slower than the CPU alone
			}
			best, bestV = lay, v
		}
	}
	if best.layers > 0 {
		p := fromLayout(*base, bestV, best, req)
		p.Reasons = append(p.Reasons, fmt.Sprintf("No variant of %s fits wholly in GPU memory: %d of %d layers of %s run on the GPU and the rest on the CPU.",
			m.Name, p.GPULayers, m.Layers, bestV.Name))
		return explain(p, req, bestV, variants, "f16", bf16Skipped, minCC), true
	}
	base.Reasons = append(base.Reasons, fmt.Sprintf("%s does not fit in the GPUs' free memory (%s free on the largest): running on the CPU.", m.Name, gb(gpus[0].FreeMiB)))
	return Plan{}, false
}

// preferQ8 is the Q8_0 variant to try on one GPU before splitting v, a
// higher-precision variant, across GPUs: only when the variant was left to
// the planner.
func preferQ8(req Request, variants []Variant, v Variant) (Variant, bool) {
	if req.Overrides.Variant != "" || rank(v.Name) <= rank("Q8_0") {
		return Variant{}, false
	}
	for _, w := range variants {
		if strings.EqualFold(w.Name, "Q8_0") {
			return w, true
		}
	}
	return Variant{}, false
}

func fromLayout(p Plan, v Variant, lay layout, req Request) Plan {
	p.Variant = v.Name
	p.KVType = lay.kv
	for i, g := range lay.devs {
		if lay.split[i] == 0 {
			continue
		}
		p.Devices = append(p.Devices, g.Index)
		p.TensorSplit = append(p.TensorSplit, lay.split[i])
		p.EstimateMiB = append(p.EstimateMiB, lay.estimate[i])
	}
	p.GPULayers = lay.layers
	p.MainGPU = lay.devs[0].Index
	p.Projector = lay.projector
	if len(p.Devices) > 1 {
		p.SplitMode = "layer"
	}
	if lay.fa {
		p.FlashAttention = "on"
	} else {
		p.FlashAttention = "off"
	}
	if rest := req.Model.Layers - lay.layers; rest > 0 {
		nonLayerFrac := req.Model.NonLayerFraction
		if nonLayerFrac <= 0 {
			nonLayerFrac = 0.08
		}
		p.CPUMiB = mib(uint64(float64(v.Bytes) * ((1-nonLayerFrac)*float64(rest)/float64(req.Model.Layers) + nonLayerFrac)))
	}
	if p.Projector == "cpu" {
		p.CPUMiB += mib(req.Model.ProjectorBytes)
	}
	return p
}

// explain adds the reasons for precision, KV cache, flash attention and P2P.
func explain(p Plan, req Request, v Variant, variants []Variant, kv string, bf16Skipped bool, minCC GPU) Plan {
	if bf16Skipped && !strings.EqualFold(v.Name, "BF16") {
		p.Reasons = append(p.Reasons, fmt.Sprintf("BF16 weights need compute capability 8.0 or newer; %s is %d.%d, so BF16 is not used.", minCC.Name, minCC.CCMajor, minCC.CCMinor))
	}
	better := higherVariants(v, variants)
	if bf16Skipped {
		better = slices.DeleteFunc(better, func(n string) bool { return strings.EqualFold(n, "BF16") })
	}
	if len(better) > 0 {
		p.Reasons = append(p.Reasons, fmt.Sprintf("Higher-precision variants (%s) do not fit with headroom.", strings.Join(better, ", ")))
	}
	if kv == "q8_0" {
		p.Reasons = append(p.Reasons, "The KV cache is stored as q8_0 (needs flash attention) because that is what makes the model fit; f16 would not.")
	}
	if p.Projector == "cpu" {
		p.Reasons = append(p.Reasons, "The vision projector runs on the CPU: with it the model would not fit in GPU memory. Reading each image takes a few seconds longer.")
	}
	switch p.FlashAttention {
	case "off":
		if why := faProblem(p, req.Machine); why != "" {
			p.Reasons = append(p.Reasons, "Flash attention is off: "+why+".")
		}
	case "on":
		p.Reasons = append(p.Reasons, "Flash attention is on: it saves memory and time on these GPUs.")
	}
	if o := req.Overrides.FlashAttention; o != "" && o != p.FlashAttention {
		if o == "on" && p.FlashAttention == "off" {
			p.Warnings = append(p.Warnings, "flash attention was asked for but a chosen GPU gives wrong results with it: kept off")
		} else {
			p.FlashAttention = o
			p.Reasons = append(p.Reasons, "Flash attention is "+o+", as chosen in settings.")
			if o == "off" && p.KVType != "f16" {
				p.KVType = "f16"
			}
		}
	}
	if g := req.Overrides.GPULayers; g != nil && *g < p.GPULayers {
		p.Warnings = append(p.Warnings, fmt.Sprintf("only %d of %d layers on the GPU, as chosen in settings: slower than the plan's %d", *g, p.TotalLayers, p.GPULayers))
		p = limitLayers(p, *g)
	}
	if len(p.Devices) > 1 {
		allPeer := true
		pos := map[int]int{}
		for i, g := range req.Machine.GPUs {
			pos[g.Index] = i
		}
		for _, a := range p.Devices {
			for _, b := range p.Devices {
				if a != b && !req.Machine.PeerOK(pos[a], pos[b]) {
					allPeer = false
				}
			}
		}
		if allPeer {
			p.Env = append(p.Env, "GGML_CUDA_P2P=1")
			p.Reasons = append(p.Reasons, "Every pair of these GPUs reports peer access, so GPUs copy to each other directly.")
		} else {
			p.Reasons = append(p.Reasons, "Some of these GPUs report no peer access, so GGML_CUDA_P2P is left unset (llama.cpp turns peer copies on whenever the variable exists, even as 0, and that gave \"!!!!\" output).")
		}
	}
	return p
}

func limitLayers(p Plan, n int) Plan {
	n = max(0, n)
	remaining := n
	for i := range p.TensorSplit {
		p.TensorSplit[i] = min(p.TensorSplit[i], remaining)
		remaining -= p.TensorSplit[i]
	}
	p.GPULayers = n
	return p
}

func higherVariants(v Variant, variants []Variant) []string {
	var out []string
	for _, o := range variants {
		if rank(o.Name) > rank(v.Name) {
			out = append(out, o.Name)
		}
	}
	return out
}

// planCPU picks the variant for a CPU run: speed there is bound by memory
// bandwidth, so the smallest 4-bit-or-better variant that fits in RAM wins.
func planCPU(req Request, variants []Variant, p Plan) Plan {
	m := req.Model
	candidates := slices.Clone(variants)
	slices.SortStableFunc(candidates, func(a, b Variant) int { return cmp.Compare(a.Bytes, b.Bytes) })
	chosen := candidates[0]
	for _, v := range candidates {
		if rank(v.Name) >= rank("Q4_0") || rank(v.Name) == 0 {
			chosen = v
			break
		}
	}
	if req.Overrides.Variant != "" {
		chosen = variants[0]
	}
	p.Variant = chosen.Name
	p.Devices, p.TensorSplit, p.EstimateMiB, p.GPULayers = nil, nil, nil, 0
	p.SplitMode, p.Projector, p.FlashAttention, p.KVType = "none", "cpu", "auto", "f16"
	kv := uint64(kvBytesPerToken(m, "f16") * float64(req.Context*req.Parallel*max(m.Layers, 1)))
	p.CPUMiB = mib(chosen.Bytes) + mib(m.ProjectorBytes) + mib(kv) + graphMiB(m, defaultBatch)
	p.Reasons = append(p.Reasons, fmt.Sprintf("On the CPU, reading speed is limited by memory bandwidth, so the smallest good variant, %s (%s), is fastest.", chosen.Name, gb(mib(chosen.Bytes))))
	p.Reasons = append(p.Reasons, fmt.Sprintf("%s: one fewer than the %d cores, which keeps the app responsive (all cores made each step far slower on 2-core machines).", plain.Count(p.Threads, "thread", "threads"), req.Machine.CPUCores))
	if free := req.Machine.FreeRAMMiB; free > 0 && p.CPUMiB > uint64(float64(free)*Headroom) {
		p.Warnings = append(p.Warnings, fmt.Sprintf("the model needs about %s of memory and %s is free: close other programs or choose a smaller model", gb(p.CPUMiB), gb(free)))
	}
	return p
}

func finish(req Request, p Plan) Plan {
	p.ReceiptsPerMin = estimateSpeed(req, p)
	return p
}

// faProblem names the first chosen GPU that cannot use flash attention.
func faProblem(p Plan, m Machine) string {
	for _, d := range p.Devices {
		for _, g := range m.GPUs {
			if ok, why := flashAttentionOK(g); g.Index == d && !ok {
				return why
			}
		}
	}
	return ""
}
