package plan

import (
	"math/rand/v2"
	"testing"

	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/training"
)

// TestBoundBelowSimulation draws plans from random small search spaces
// (seeded) and checks on each that the bounds the search prunes with are
// true lower bounds: the closed-form floor ≤ Quick's work bound ≤
// Estimate's tight bound ≤ the simulated iteration. Pruning can only drop
// the optimum if one of these fails.
func TestBoundBelowSimulation(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 405))
	models := []string{"llama3-8b", "gpt3-1.3b", "mixtral-8x7b", "megatron-1.7b"}
	gpus := []string{"h100-sxm", "a100-sxm-80gb"}
	cases, perCase := 50, 4
	if testing.Short() {
		cases = 10
	}
	checked := 0
	for i := 0; i < cases; i++ {
		cfg := Config{
			Model:         scenario.Model{Preset: models[rng.IntN(len(models))], SeqLen: 512 << rng.IntN(3)},
			Cluster:       scenario.Cluster{GPU: gpus[rng.IntN(len(gpus))], Nodes: 1 << rng.IntN(3), GPUsPerNode: 2 << rng.IntN(3)},
			GlobalBatch:   4 << rng.IntN(5),
			MaxMicroBatch: 1 << rng.IntN(2),
		}
		s, err := New(cfg)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		est := training.NewEstimator()
		for j := 0; j < perCase; j++ {
			p := s.all[rng.IntN(len(s.all))]
			screen(p, est)
			if p.err != nil || !p.Fits {
				continue
			}
			full, err := est.Estimate(p.Scenario)
			if err != nil {
				t.Fatal(err)
			}
			simulate(p, taskgraph.Analytic)
			if p.err != nil {
				t.Fatal(p.err)
			}
			q := p.Scenario.Query().Encode()
			if f := p.Estimate.Work; f > p.Estimate.Work {
				t.Errorf("%s: floor %v above the work bound %v", q, f, p.Estimate.Work)
			}
			if p.Estimate.Work > full.LowerBound || full.LowerBound > p.Result.Iteration {
				t.Errorf("%s: work %v, bound %v, simulated %v; want work ≤ bound ≤ simulated", q, p.Estimate.Work, full.LowerBound, p.Result.Iteration)
			}
			checked++
		}
	}
	if checked < cases {
		t.Fatalf("only %d plans checked", checked)
	}
	t.Logf("%d plans checked", checked)
}
