package main

import (
	"bytes"
	"strings"
	"testing"

	"paraplay/sim/launch"
	"paraplay/sim/plan"
	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// TestEmitFallsBackToARunnablePlan: when the best plan runs a schedule
// Megatron-LM has no setting for (ZB-V), --emit megatron writes the fastest
// simulated plan it can run and says so on the terminal and in the file;
// the file still reads back.
func TestEmitFallsBackToARunnablePlan(t *testing.T) {
	mk := func(sched string, v int, it units.Time, st plan.Status) *plan.Plan {
		s := scenario.Default()
		s.Strategy, s.Fidelity = "training", "analytic"
		s.Model = scenario.Model{Preset: "llama3-8b", SeqLen: 4096}
		s.Cluster = scenario.Cluster{GPU: "h100-sxm", Nodes: 2, GPUsPerNode: 8}
		s.Parallel.DP, s.Parallel.TP, s.Parallel.PP, s.Parallel.Microbatches = 2, 2, 4, 8
		s.Parallel.Schedule, s.Parallel.VirtualStages = sched, v
		return &plan.Plan{Scenario: s, Status: st, Fits: true, Result: &plan.Metrics{Iteration: it}}
	}
	r := &plan.Result{Plans: []*plan.Plan{mk("zb-v", 2, 900*units.Millisecond, plan.Best), mk("dualpipev", 2, 950*units.Millisecond, plan.Simulated),
		mk("interleaved", 2, 990*units.Millisecond, plan.Simulated), mk("1f1b", 1, 1000*units.Millisecond, plan.Simulated)}}
	var out, errOut bytes.Buffer
	if err := writeEmit(&out, &errOut, "megatron", r); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"NOTE: the best plan", "zb-v", "cannot be written for megatron", "+10.0%"} {
		if !strings.Contains(out.String(), w) || !strings.Contains(errOut.String(), w) {
			t.Errorf("missing %q:\nfile: %s\nterminal: %s", w, out.String(), errOut.String())
		}
	}
	base := scenario.Default()
	base.Cluster.GPU = "h100-sxm"
	back, err := launch.FromMegatron(out.String(), base)
	if err != nil || back.Parallel.Schedule != "interleaved" || back.Parallel.VirtualStages != 2 {
		t.Errorf("read back: %+v, %v; want the interleaved plan", back.Parallel, err)
	}
	r.Plans = r.Plans[:2]
	if err := writeEmit(&out, &errOut, "megatron", r); err == nil || !strings.Contains(err.Error(), "no other simulated plan") {
		t.Errorf("no runnable plan: error %v", err)
	}
}
