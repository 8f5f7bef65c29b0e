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
	checked, covered := 0, map[string]int{}
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
		picks := pickPlans(rng, s, perCase)
		for _, p := range picks {
			if p.twin != nil { // the twin shortcut's premise: overlap moves no byte
				tw, err1 := est.Quick(p.twin.Scenario)
				own, err2 := est.Quick(p.Scenario)
				if err1 == nil && err2 == nil && tw.PeakMemory != own.PeakMemory {
					t.Errorf("%s: peak %v, its twin without overlap %v", p.Scenario.Query().Encode(), own.PeakMemory, tw.PeakMemory)
				}
			}
			p.twin = nil // screened on its own here
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
			for _, dim := range newDimensions {
				if dim.has(p.Scenario.Parallel) {
					covered[dim.name]++
				}
			}
		}
	}
	if checked < cases {
		t.Fatalf("only %d plans checked", checked)
	}
	for _, dim := range newDimensions {
		if covered[dim.name] == 0 {
			t.Errorf("no plan with %s was checked", dim.name)
		}
	}
	t.Logf("%d plans checked; of the newer dimensions %v", checked, covered)
}

// newDimensions are the parts of the search space added for frontier
// plans (issue 24); the bound and pruning tests check that their random
// cases reach each.
var newDimensions = []struct {
	name string
	has  func(scenario.Parallel) bool
}{
	{"interleaved v8", func(p scenario.Parallel) bool { return p.Schedule == "interleaved" && p.VirtualStages == 8 }},
	{"zb-h2", func(p scenario.Parallel) bool { return p.Schedule == "zb-h2" }},
	{"dualpipev", func(p scenario.Parallel) bool { return p.Schedule == "dualpipev" }},
	{"first_last_fewer", func(p scenario.Parallel) bool { return p.FirstLastFewer > 0 }},
	{"tp_comm_overlap", func(p scenario.Parallel) bool { return p.TPCommOverlap }},
	{"ep", func(p scenario.Parallel) bool { return p.EP > 1 }},
	{"etp", func(p scenario.Parallel) bool { return p.ETP > 0 && p.ETP != p.TP }},
}

// pickPlans draws n plans of the search, and one of each of the newer
// dimensions the space has.
func pickPlans(rng *rand.Rand, s *Search, n int) []*Plan {
	picks := make([]*Plan, 0, n+len(newDimensions))
	for j := 0; j < n; j++ {
		picks = append(picks, s.all[rng.IntN(len(s.all))])
	}
	for _, dim := range newDimensions {
		var with []*Plan
		for _, p := range s.all {
			if dim.has(p.Scenario.Parallel) {
				with = append(with, p)
			}
		}
		if len(with) > 0 {
			picks = append(picks, with[rng.IntN(len(with))])
		}
	}
	return picks
}
