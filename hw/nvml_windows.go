package hw

import (
	"runtime"

	"golang.org/x/sys/cpu"
)

// DiscoverHere plans for the CPU on Windows: NVML's Go binding loads the
// Linux library only, and no GPU back-end of llama.cpp is built for Windows
// (a reading server is the way to a GPU there).
func DiscoverHere() Machine {
	return Machine{
		CPUCores: runtime.NumCPU(), AVX2: cpu.X86.HasAVX2, FreeRAMMiB: freeRAMMiB(),
		Notes: []string{"This Windows version of Shoebox reads on the CPU; to use an NVIDIA GPU, read on a server (Settings → Reading)."},
	}
}
