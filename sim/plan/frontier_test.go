package plan

import (
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
)

// frontier is issue 24's frontier case: Llama 3 405B on 16,384 H100s
// (2,048 servers of 8), 2,048 sequences of 8,192 tokens, as Dubey et al.
// 2024 ("The Llama 3 Herd of Models", §3.3.2, Table 4) trained it.
func frontier() Config {
	return Config{Model: scenario.Model{Preset: "llama3-405b", SeqLen: 8192},
		Cluster: scenario.Cluster{GPU: "h100-sxm", Nodes: 2048, GPUsPerNode: 8}, GlobalBatch: 2048}
}

// metaLayout is Meta's published layout for the frontier case (Dubey et
// al. 2024, Table 4: TP 8, CP 1, PP 16, DP 128, batch 16 per data-parallel
// group, so 16 microbatches of one sequence; sequence parallelism, no
// activation recomputation, sharded optimizer states and gradients, §3.3.2)
// under each pipeline schedule the planner may give it: 1F1B and the
// interleaved one Meta ran (with v = 2; v = 4 is over the command line's
// budget at this size). It returns the fastest run that fits.
func metaLayout(t testing.TB) *Plan {
	var best *Plan
	for _, sched := range []schedule{{"1f1b", 1}, {"interleaved", 2}} {
		s := frontier().scenario()
		p := &s.Parallel
		p.DP, p.TP, p.PP, p.Microbatches, p.MicroBatchSize = 128, 8, 16, 16, 1
		p.Schedule, p.VirtualStages, p.ZeRO, p.SequenceParallel, p.Recompute = sched.name, sched.v, 2, true, "none"
		p.LayersPerStage = nil
		pl := &Plan{Scenario: s}
		simulate(pl, taskgraph.Analytic)
		if pl.err != nil {
			t.Fatalf("Meta's layout, %s: %v", sched.name, pl.err)
		}
		if !pl.Result.OOM && (best == nil || pl.Result.Iteration < best.Result.Iteration) {
			best = pl
		}
	}
	if best == nil {
		t.Fatal("Meta's layout does not fit under any schedule")
	}
	return best
}

// BenchmarkPlan405B16384 is the acceptance case of issue 24: the search
// over Llama 3 405B on 16,384 H100s on two workers. Its best plan must fit
// and run no slower than Meta's layout (metaLayout) in the same model.
func BenchmarkPlan405B16384(b *testing.B) {
	meta := metaLayout(b)
	b.Logf("Meta's layout: %s, %v", meta.Label(), meta.Result.Iteration)
	for b.Loop() {
		r := mustRun(b, frontier(), 2)
		best := r.Plans[0]
		if best.Status != Best || !best.Fits || best.Result.OOM {
			b.Fatalf("the best plan %s does not fit", best.Label())
		}
		if best.Result.Iteration > meta.Result.Iteration {
			b.Fatalf("the best plan %s runs %v, slower than Meta's %s at %v", best.Label(), best.Result.Iteration, meta.Label(), meta.Result.Iteration)
		}
		b.Logf("best %s, %v (Meta's %v); %d plans, %d simulated, %d bounded, %d out of memory",
			best.Label(), best.Result.Iteration, meta.Result.Iteration, r.Progress.Plans, r.Progress.Simulated, r.Progress.Bounded, r.Progress.OutOfMemory)
		b.ReportMetric(float64(r.Progress.Simulated), "simulated/op")
	}
}
