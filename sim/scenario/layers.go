package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxStageLayers bounds one entry of parallel.layers_per_stage,
// MaxModelStages its length (pp ≤ 1024 devices × v ≤ 64 chunks), and
// MaxFirstLastFewer parallel.first_last_fewer.
const (
	MaxStageLayers    = 1024
	MaxModelStages    = 1024 * 64
	MaxFirstLastFewer = 64
)

// ParseLayerCounts reads parallel.layers_per_stage: layer counts, one per
// model stage (pp·v of them), separated by commas; "n*k" repeats n k
// times, so Llama 3 405B's 16 stages are "7,8*14,7".
func ParseLayerCounts(text string) ([]int, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	rs, err := splitRuns(text, MaxModelStages, "stages")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, r := range rs {
		n, err := strconv.Atoi(r.item)
		if err != nil || n < 0 || n > MaxStageLayers {
			return nil, fmt.Errorf("%q: a stage's layers must be a whole number 0..%d", r.text, MaxStageLayers)
		}
		for range r.k {
			out = append(out, n)
		}
	}
	return out, nil
}

// FormatLayerCounts writes counts in the form ParseLayerCounts reads, runs
// of one count as n*k.
func FormatLayerCounts(counts []int) string {
	var parts []string
	for i := 0; i < len(counts); {
		j := i
		for j < len(counts) && counts[j] == counts[i] {
			j++
		}
		part := strconv.Itoa(counts[i])
		if j-i > 1 {
			part += "*" + strconv.Itoa(j-i)
		}
		parts = append(parts, part)
		i = j
	}
	return strings.Join(parts, ",")
}
