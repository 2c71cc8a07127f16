package hw

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"time"
)

// GPU is one NVIDIA GPU as NVML reports it.
type GPU struct {
	Index      int    `json:"index"`
	UUID       string `json:"uuid"`
	Name       string `json:"name"`
	CCMajor    int    `json:"cc_major"` // CUDA compute capability
	CCMinor    int    `json:"cc_minor"`
	TotalMiB   uint64 `json:"total_mib"`
	FreeMiB    uint64 `json:"free_mib"`
	PCIBus     string `json:"pci_bus,omitempty"`
	Driver     string `json:"driver,omitempty"`
	CUDADriver string `json:"cuda_driver,omitempty"` // e.g. "12.8"
}

// CC returns the compute capability as 10×major+minor: 80 for 8.0.
func (g GPU) CC() int { return g.CCMajor*10 + g.CCMinor }

// Machine is what DiscoverHere (or Discover) found.
type Machine struct {
	GPUs []GPU `json:"gpus"`
	// P2P[i][j] is true when GPUs i and j (by position in GPUs) reported peer
	// access OK; missing or unknown means no.
	P2P        [][]bool `json:"p2p,omitempty"`
	CPUCores   int      `json:"cpu_cores"`
	AVX2       bool     `json:"avx2"`
	FreeRAMMiB uint64   `json:"free_ram_mib"`
	// Notes explain in plain words why no GPU is used, when none is.
	Notes []string `json:"notes,omitempty"`
}

// PeerOK reports whether GPUs at positions i and j can copy to each other directly.
func (m Machine) PeerOK(i, j int) bool {
	return i < len(m.P2P) && j < len(m.P2P[i]) && m.P2P[i][j]
}

// DiscoverTimeout bounds how long NVML may take: a wedged driver must not hang the app.
const DiscoverTimeout = 10 * time.Second

// freeRAMMiB reads MemAvailable from /proc/meminfo (0 when unknown).
func freeRAMMiB() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb / 1024
		}
	}
	return 0
}
