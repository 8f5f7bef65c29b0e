package fault

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Cause is a root cause of an unexpected interruption.
type Cause struct {
	// Name is the cause's key in a cause mix, e.g. "gpu".
	Name string
	// NodeLost says the failure takes its node away until it is repaired
	// or swapped (hardware, maintenance); otherwise only the job crashes
	// and the node is fine (software), so every policy restarts from the
	// last checkpoint.
	NodeLost bool
	// Llama3 is the number of the 419 unexpected interruptions of the
	// Llama 3 405B pre-training (Dubey et al. 2024, Table 5) in this group.
	Llama3 int
	// Help lists the report's categories grouped under Name.
	Help string
}

// Causes is the catalog of causes, grouped from the 18 rows of Table 5 of
// the Llama 3 report (54 days, up to 16,384 H100 GPUs). Shares are
// count/419: gpu 45.3%, hbm3 17.2%, network 10.0%, host 7.6%, hardware
// 4.8%, software 15.0%. The four hardware groups (gpu, hbm3, network,
// hardware: 324 of 419, 77.3%) match the report's "about 78%" attributed
// to hardware; host maintenance also takes the node away but is not a
// fault of it.
var Causes = []Cause{
	{"gpu", true, 148 + 19 + 17 + 6, "faulty GPU 148, GPU SRAM 19, GPU system processor 17, GPU thermal interface and sensor 6"},
	{"hbm3", true, 72, "GPU HBM3 memory 72"},
	{"network", true, 35 + 7, "network switch or cable 35, NIC 7"},
	{"host", true, 32, "host maintenance 32"},
	{"hardware", true, 6 + 3 + 3 + 2 + 2 + 2 + 2, "silent data corruption 6, SSD 3, power supply 3, server chassis 2, IO expansion board 2, CPU 2, system memory 2"},
	{"software", false, 54 + 7 + 2, "software bug 54, NCCL watchdog timeout 7, dependency 2"},
}

// Llama3Interruptions is the number of unexpected interruptions in the
// Llama 3 report's 54-day snapshot (Dubey et al. 2024, §3.3.4).
const Llama3Interruptions = 419

// Llama3RatePerNodeDay is the failure rate per node per day implied by the
// Llama 3 report: 419 unexpected interruptions in 54 days on 16,384 GPUs =
// 2,048 nodes of 8, so 419 / (54 × 2048) = 419 / 110,592 ≈ 0.003789 per
// node-day: one failure per node every ~264 days, a job-wide mean time
// between failures of 24 h / (2048 × 0.003789) ≈ 3.09 h, i.e. ~0.32
// failures per hour. It is an upper bound on the per-node rate: the job
// did not run on all 16,384 GPUs the whole time.
const Llama3RatePerNodeDay = 419.0 / (54 * 2048)

// DefaultMix is the cause mix of the Llama 3 report, as a mix string.
var DefaultMix = func() string {
	parts := make([]string, len(Causes))
	for i, c := range Causes {
		parts[i] = c.Name + ":" + strconv.Itoa(c.Llama3)
	}
	return strings.Join(parts, ",")
}()

// Share is one cause's weight in a mix.
type Share struct {
	// Cause is a name from Causes.
	Cause string
	// Weight is relative: only its ratio to the mix's total matters.
	Weight float64
}

// Mix is a cause mix: which share of failures has which cause.
type Mix []Share

// CauseByName returns the catalog entry for name.
func CauseByName(name string) (Cause, bool) {
	for _, c := range Causes {
		if c.Name == name {
			return c, true
		}
	}
	return Cause{}, false
}

func causeNames() string {
	names := make([]string, len(Causes))
	for i, c := range Causes {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// ParseMix reads a cause mix such as "gpu:190,hbm3:72,software:63": causes
// from Causes with non-negative relative weights, each cause at most once,
// the total positive. An empty string is an error: say DefaultMix instead.
func ParseMix(s string) (Mix, error) {
	var m Mix
	total := 0.0
	for _, part := range strings.Split(s, ",") {
		name, w, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return nil, fmt.Errorf("invalid cause %q: want cause:weight, e.g. gpu:190", part)
		}
		name = strings.TrimSpace(name)
		if _, known := CauseByName(name); !known {
			return nil, fmt.Errorf("unknown cause %q; known: %s", name, causeNames())
		}
		if slices.ContainsFunc(m, func(x Share) bool { return x.Cause == name }) {
			return nil, fmt.Errorf("cause %q given more than once", name)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 1e9 {
			return nil, fmt.Errorf("invalid weight %q for %s: want a number from 0 to 1e9", w, name)
		}
		m = append(m, Share{name, v})
		total += v
	}
	if total <= 0 {
		return nil, fmt.Errorf("cause weights add up to 0; want at least one positive")
	}
	return m, nil
}

// String prints the mix as ParseMix reads it.
func (m Mix) String() string {
	parts := make([]string, len(m))
	for i, s := range m {
		parts[i] = s.Cause + ":" + strconv.FormatFloat(s.Weight, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// Fractions returns each cause's share of the total, in the mix's order.
func (m Mix) Fractions() []float64 {
	total := 0.0
	for _, s := range m {
		total += s.Weight
	}
	out := make([]float64, len(m))
	for i, s := range m {
		out[i] = s.Weight / total
	}
	return out
}
