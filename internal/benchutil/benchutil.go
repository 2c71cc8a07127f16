// Package benchutil holds what the benchmarks share: the process's peak
// memory, read the same way everywhere so reported numbers compare.
package benchutil

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// PeakRSSMB is the process's high-water resident set size in MiB (VmHWM),
// or 0 where /proc is not available.
func PeakRSSMB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
