// Package hw finds the machine's GPUs (NVML, behind an interface), CPU and
// memory, and plans how a model runs on them: weights variant, GPU layers and
// split, flash attention, KV cache type, threads, and the reasons in plain
// words. The planner is a pure function; hw never calls llama.cpp.
package hw
