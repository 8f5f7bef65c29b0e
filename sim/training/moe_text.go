//go:build !js

package training

import (
	"fmt"
	"io"

	"paraplay/sim/moe"
	"paraplay/sim/units"
)

// The routing's lines of the summary, which the browser never prints
// (moe_text_js.go stands in for them there).

// WriteText prints the routing's lines.
func (r MoE) WriteText(w io.Writer) {
	fmt.Fprintf(w, "  experts: %d routed (top %d) + %d shared, ep %d × etp %d; routing %s\n", r.Experts, r.TopK, r.Shared, r.EP, r.ETP, r.Routing)
	pct := 0.0
	if r.Copies > 0 {
		pct = 100 * r.Dropped / r.Copies
	}
	fmt.Fprintf(w, "  dropped tokens %.4g of %.4g copies (%.2f%%); expert load max/mean %.2f (worst layer %.2f), GPU load max/mean %.2f\n",
		r.Dropped, r.Copies, pct, r.ExpertMaxMean, r.WorstExpert, r.GPUMaxMean)
	fmt.Fprintf(w, "  exposed EP time %v per GPU (all-to-alls and waits for the busiest GPU: expert-parallel index %d, GPU %d)",
		units.Round(r.ExposedEP), r.Busiest, r.BusiestGPUs[0])
	if r.Nodes > 1 {
		fmt.Fprintf(w, "; a token's copies reach %.2f of %d nodes", r.NodesPerToken, r.Nodes)
	}
	fmt.Fprintln(w)
}

// routingName says how the router spreads tokens, for the summary.
func routingName(r moe.Routing) string {
	s := "balanced"
	switch {
	case len(r.Histogram) > 0:
		s = "histogram"
	case r.Skew == moe.Lognormal && r.CV > 0:
		s = fmt.Sprintf("lognormal cv %g", r.CV)
	case r.Skew == moe.Zipf && r.S > 0:
		s = fmt.Sprintf("zipf s %g", r.S)
	}
	if r.HotExperts > 0 {
		s += fmt.Sprintf(", %d hot experts", r.HotExperts)
	}
	if r.CapacityFactor > 0 {
		s += fmt.Sprintf(", capacity factor %g", r.CapacityFactor)
	} else {
		s += ", dropless"
	}
	if r.Redundant > 0 {
		s += fmt.Sprintf(", %d redundant experts (EPLB)", r.Redundant)
	}
	return s
}
