package plan

import (
	"strings"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

// TestNearOOMPlansAreKept screens Llama 3 405B's published layout (tp 8,
// pp 16, dp 64, 8K, no checkpointing), whose peak with the memory reserve
// is about 73 of the H100's 80 GiB: above 90%, within HBM. The planner
// keeps it (it fits, so it is not ruled out as out of memory; ZeRO-1 makes
// it dominated by its ZeRO-2 twin, which is not near the limit) and says it
// is in the warning zone.
func TestNearOOMPlansAreKept(t *testing.T) {
	s, err := scenario.Parse([]byte("fidelity: analytic\nmodel: {preset: llama3-405b}\n" +
		"cluster: {gpu: h100-sxm, nodes: 1024, gpus_per_node: 8}\n" +
		"parallel: {dp: 64, tp: 8, pp: 16, zero: 1, microbatches: 16, sequence_parallel: true, recompute: none, first_last_fewer: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	p := &Plan{Scenario: s}
	screen(p, training.NewEstimator())
	if p.err != nil {
		t.Fatal(p.err)
	}
	if !p.Fits || !p.NearOOM || p.Status == OutOfMemory {
		t.Fatalf("peak %v of %v: fits %v, near OOM %v, status %q; want a plan that fits, marked near OOM",
			p.Estimate.PeakMemory, p.Estimate.Capacity, p.Fits, p.NearOOM, p.Status)
	}
	p.Status = Best
	explain(p, p)
	if !strings.Contains(p.Why, "over 90% of the GPU's") {
		t.Errorf("why %q: want it to say the peak is over 90%% of HBM", p.Why)
	}
	// An out-of-memory plan says only that.
	q := &Plan{Status: OutOfMemory, NearOOM: true, Estimate: p.Estimate}
	explain(q, nil)
	if strings.Contains(q.Why, "90%") {
		t.Errorf("out-of-memory why %q: want no warning-zone note", q.Why)
	}
}
