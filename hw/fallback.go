package hw

import (
	"fmt"
)

// StepDown returns the next safer plan after p was rejected at load time (a
// canary that printed "!!!!", NaN logits, out of memory): a split becomes
// the single best GPU, a single GPU gets half the layers, and partial
// offload ends on the CPU. It returns false when p already runs on the CPU.
// The step and its reason are recorded in the new plan's Steps.
func StepDown(req Request, p Plan, why string) (Plan, bool) {
	if p.OnCPU() {
		return p, false
	}
	next := req
	var step string
	switch {
	case len(p.Devices) > 1:
		next.Overrides.GPUs = []int{p.Devices[0]}
		step = fmt.Sprintf("split across %d GPUs failed (%s): trying one GPU", len(p.Devices), why)
	case p.GPULayers > 3:
		n := p.GPULayers / 2
		next.Overrides.GPUs = []int{p.Devices[0]}
		next.Overrides.GPULayers = &n
		step = fmt.Sprintf("%d layers on the GPU failed (%s): trying %d", p.GPULayers, why, n)
	default:
		next.Overrides = Overrides{CPUOnly: true}
		step = fmt.Sprintf("the GPU failed (%s): running on the CPU", why)
	}
	np := MakePlan(next)
	if !np.OnCPU() && np.GPULayers >= p.GPULayers && len(np.Devices) >= len(p.Devices) {
		// The planner found nothing smaller there: go straight to the CPU.
		next.Overrides = Overrides{CPUOnly: true}
		np = MakePlan(next)
		step = fmt.Sprintf("the GPU failed (%s): running on the CPU", why)
	}
	np.Steps = append(append(append([]string{}, p.Steps...), step), np.Steps...)
	return np, true
}
