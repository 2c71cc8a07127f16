package hw

import (
	"fmt"
	"strings"
)

// gpuSpeed is memory bandwidth (GB/s) and dense FP16 throughput (TFLOP/s)
// from the makers' data sheets, for the estimate the UI shows.
type gpuSpeed struct{ bandwidth, tflops float64 }

var knownGPUs = []struct {
	match string
	speed gpuSpeed
}{
	{"H200", gpuSpeed{4800, 990}},
	{"H100", gpuSpeed{3350, 990}},
	{"A100-SXM4-80", gpuSpeed{2039, 312}},
	{"A100", gpuSpeed{1555, 312}},
	{"L40S", gpuSpeed{864, 362}},
	{"L40", gpuSpeed{864, 181}},
	{"L4", gpuSpeed{300, 121}},
	{"A10", gpuSpeed{600, 125}},
	{"T4", gpuSpeed{320, 65}},
	{"V100", gpuSpeed{900, 125}},
	{"4090", gpuSpeed{1008, 165}},
	{"3090", gpuSpeed{936, 71}},
	{"4080", gpuSpeed{717, 97}},
	{"3080", gpuSpeed{760, 60}},
	{"Xavier", gpuSpeed{137, 11}},
	{"Orin", gpuSpeed{204, 42}},
	{"A6000", gpuSpeed{768, 155}},
}

func speedOf(name string) gpuSpeed {
	for _, k := range knownGPUs {
		if strings.Contains(name, k.match) {
			return k.speed
		}
	}
	return gpuSpeed{250, 20} // a modest unknown GPU
}

// Token counts of one receipt: the image and prompt in, the JSON out.
const (
	promptTokens = 1300
	outputTokens = 300
)

// estimateSpeed is a rough receipts-per-minute figure: decoding is bound by
// memory bandwidth, prefill by compute.
func estimateSpeed(req Request, p Plan) float64 {
	var bytes uint64
	for _, v := range req.Model.Variants {
		if v.Name == p.Variant {
			bytes = v.Bytes
		}
	}
	if bytes == 0 || req.Model.Layers == 0 {
		return 0
	}
	gbytes := float64(bytes) / 1e9
	params := gbytes / bytesPerParam(p.Variant)
	layerShare := 1 / float64(req.Model.Layers)
	var decode, prefill float64 // seconds per token, seconds per receipt
	cpuShare := float64(req.Model.Layers-p.GPULayers) * layerShare
	for i, d := range p.Devices {
		s := speedOf(gpuName(req.Machine, d))
		share := float64(p.TensorSplit[i]) * layerShare
		decode += gbytes * share / (s.bandwidth * 0.6)
		prefill += 2 * params * 1e9 * share * promptTokens / (s.tflops * 1e12 * 0.35)
	}
	cpuBW := 20.0 * float64(max(1, p.Threads)) / 4
	cpuBW = min(max(cpuBW, 8), 60)
	cpuFlops := 30e9 * float64(max(1, p.Threads))
	decode += gbytes * cpuShare / (cpuBW * 0.6)
	prefill += 2 * params * 1e9 * cpuShare * promptTokens / cpuFlops
	encode := 0.3
	if p.Projector == "cpu" {
		encode = 2 * float64(req.Model.ProjectorBytes) / 2 * 1e-9 * 800 / (cpuFlops / 1e9) // ~800 patches through the ViT
	}
	seconds := prefill + decode*outputTokens + encode
	if seconds <= 0 {
		return 0
	}
	return 60 / seconds * float64(max(1, min(p.Parallel, 4)))
}

func bytesPerParam(v string) float64 {
	switch strings.ToUpper(v) {
	case "BF16", "F16":
		return 2
	case "F32":
		return 4
	case "Q8_0":
		return 1.0625
	case "Q6_K":
		return 0.82
	case "Q5_K_M", "Q5_K_S", "Q5_0":
		return 0.69
	case "Q4_K_M", "Q4_K_S", "Q4_0", "IQ4_XS":
		return 0.6
	}
	return 1
}

// SpeedText is the estimate in words: "about 40 receipts/minute" or "about
// one receipt every 4 minutes".
func (p Plan) SpeedText() string {
	switch r := p.ReceiptsPerMin; {
	case r <= 0:
		return "speed unknown"
	case r >= 1.5:
		return fmt.Sprintf("about %.0f receipts/minute", r)
	case r >= 0.75:
		return "about one receipt a minute"
	default:
		return fmt.Sprintf("about one receipt every %.0f minutes", 1/r)
	}
}
