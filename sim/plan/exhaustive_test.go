package plan

import (
	"math/rand/v2"
	"testing"

	"paraplay/sim/scenario"
)

// TestPruningMatchesExhaustive draws 50 small search spaces from a seeded
// source and runs each twice: pruned (the lower bound and the ZeRO-1 twin
// rule skip plans) and exhaustive (every fitting plan simulated). The
// pruning is safe when both find a best plan of the same iteration time:
// no plan the bound skipped was faster (issue 24's acceptance test).
func TestPruningMatchesExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 50))
	models := []string{"llama3-8b", "gpt3-1.3b", "mixtral-8x7b", "megatron-1.7b", "megatron-3.6b"}
	gpus := []string{"h100-sxm", "a100-sxm-80gb", "a100-sxm-40gb"}
	pruned, cases, simulated := 0, 50, map[string]int{}
	if testing.Short() {
		cases = 10
	}
	for i := 0; i < cases; i++ {
		cfg := Config{
			Model:         scenario.Model{Preset: models[rng.IntN(len(models))], SeqLen: 512 << rng.IntN(3)},
			Cluster:       scenario.Cluster{GPU: gpus[rng.IntN(len(gpus))], Nodes: 1 + rng.IntN(2), GPUsPerNode: 2 << rng.IntN(2)},
			GlobalBatch:   1 << rng.IntN(6),
			MaxMicroBatch: 1 << rng.IntN(2),
			CrossNodeTP:   rng.IntN(2) == 0,
		}
		fast, err := Run(cfg, 2, nil)
		if err != nil {
			t.Fatalf("case %d %+v: %v", i, cfg, err)
		}
		cfg.Exhaustive = true
		all, err := Run(cfg, 2, nil)
		if err != nil {
			t.Fatalf("case %d exhaustive: %v", i, err)
		}
		fb, ab := bestOf(fast), bestOf(all)
		switch {
		case (fb == nil) != (ab == nil):
			t.Errorf("case %d %s on %d %s, batch %d: pruned best %v, exhaustive best %v", i, cfg.Model.Preset, cfg.GPUs(), cfg.Cluster.GPU, cfg.GlobalBatch, fb, ab)
		case fb != nil && fb.Result.Iteration != ab.Result.Iteration:
			t.Errorf("case %d %s on %d %s, batch %d: the pruned search's best %s runs %v; the exhaustive search's %s runs %v",
				i, cfg.Model.Preset, cfg.GPUs(), cfg.Cluster.GPU, cfg.GlobalBatch, fb.Scenario.Query().Encode(), fb.Result.Iteration,
				ab.Scenario.Query().Encode(), ab.Result.Iteration)
		}
		pruned += fast.Progress.Bounded + fast.Progress.Dominated
		for _, p := range all.Plans {
			for _, dim := range newDimensions {
				if dim.has(p.Scenario.Parallel) && p.Result != nil {
					simulated[dim.name]++
				}
			}
		}
	}
	for _, dim := range newDimensions {
		if simulated[dim.name] == 0 {
			t.Errorf("the exhaustive searches simulated no plan with %s: the test does not cover it", dim.name)
		}
	}
	t.Logf("plans of the newer dimensions the exhaustive searches simulated: %v", simulated)
	if pruned == 0 {
		t.Fatalf("no plan was pruned in %d cases; the test checks nothing", cases)
	}
	t.Logf("%d plans pruned over %d cases", pruned, cases)
}

// bestOf is a search's best plan, nil when none fits.
func bestOf(r *Result) *Plan {
	if len(r.Plans) == 0 || r.Plans[0].Status != Best {
		return nil
	}
	return r.Plans[0]
}
