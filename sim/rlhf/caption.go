//go:build !js

package rlhf

import (
	"fmt"
	"math"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Caption is the caption of an RLHF demo: the run, the share of
// GPU-time spent generating, the cost a step, and a closed form beside the
// simulated figure where the placement has one (package rlhf's phase
// times, cost.go, added up independently of the run):
//
//   - co-located: a step is the sum of its phases, reshard + generate +
//     three scoring passes + two training passes;
//   - interleaved: reshard + generate + max(reference, reward + critic) +
//     max(actor train, critic train);
//   - disaggregated with η = 0: generation, scoring, training and the
//     weight sync alternate, so a step is their sum;
//   - disaggregated with an unbounded queue and η = ∞: the steady rate
//     (over the second half of the steps) is the slower pool's,
//     min(1/T_gen, k/(k·T_train + T_sync)).
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	r := sum.RLHF
	c, err := FromScenario(&s)
	if err != nil {
		return nil, err
	}
	ph := c.Phases()
	var gpuTime units.Time
	for _, d := range r.Phases {
		gpuTime += d
	}
	parts := []strategy.Part{strategy.Figure("run {}", strategy.Nanos(sum.Iteration)), strategy.Figure("{} steps", strategy.Whole(r.Steps)),
		strategy.Figure("generation {} of GPU-time", strategy.Value{V: r.Phases[timeline.Generate].Seconds() / gpuTime.Seconds(), Unit: strategy.Percent}),
		strategy.Figure("${} a step", strategy.Value{V: r.CostPerStep, Unit: strategy.Dollars})}
	train := ph.Reference + ph.Reward + ph.CriticScore + ph.ActorTrain + ph.CriticTrain
	step := func(formula string, want units.Time) {
		parts = append(parts, strategy.Compare(strategy.Check{Name: "RLHF step", Formula: formula,
			Source: "the placement's phases, package rlhf's cost.go", Tolerance: 1e-6},
			"simulated step {}; "+formula+" = {}", float64(tl.End/units.Time(r.Steps)), float64(want), strategy.Nanoseconds))
	}
	switch {
	case c.Placement == CoLocated:
		step("reshard + generate + score + train", ph.Reshard+ph.Generate+train)
	case c.Placement == Interleaved:
		step("reshard + generate + max(ref, reward + critic) + max(actor, critic train)",
			ph.Reshard+ph.Generate+max(ph.Reference, ph.Reward+ph.CriticScore)+max(ph.ActorTrain, ph.CriticTrain))
	case c.Staleness == 0:
		step("generate + score + train + sync", ph.Generate+train+ph.Sync)
	case c.Staleness == Unbounded && c.Queue == 0 && r.Steps >= 8:
		a, b := r.Steps/2, r.Steps-1
		b -= (b - a) % c.SyncEvery // whole sync periods
		st := tl.RLHF.Steps
		got := float64(b-a) / (st[b].TrainEnd - st[a].TrainEnd).Seconds()
		want := math.Min(1/ph.Generate.Seconds(), 1/ph.TrainerStep(c.SyncEvery))
		parts = append(parts, strategy.Compare(strategy.Check{Name: "RLHF steady rate", Formula: "min(1/T_gen, 1/T_train)",
			Source: "the slower pool sets the rate of a pipeline of two pools", Tolerance: 0.01},
			"simulated steady rate {} steps/s; min(1/T_gen, 1/T_train) = {} steps/s", got, want, strategy.Sig3),
			strategy.Figure("queue peak {}", strategy.Whole(r.MaxQueue)))
		parts = append(parts, budgetParts(c, got)...)
	default:
		parts = append(parts, strategy.Figure("queue peak {}", strategy.Whole(r.MaxQueue)),
			strategy.Figure("staleness mean {}", strategy.Value{V: r.MeanStaleness, Unit: strategy.Sig2}))
	}
	return parts, nil
}

// SearchTypes are the GPU types the caption's budget search (Search)
// chooses pools from.
var SearchTypes = []string{"h100-sxm", "h20", "a100-sxm-80gb"}

// budgetParts sets a disaggregated run on two GPU types beside the best
// deployment of one type that costs no more an hour (Search over
// SearchTypes at the catalog's assumed rates), AReaL-Hex's comparison at
// equal budget. simulated is the run's steady rate.
func budgetParts(c Config, simulated float64) []strategy.Part {
	if c.GenGPU.Name == c.TrainGPU.Name {
		return nil
	}
	budget := float64(c.GenGPUs)*AssumedPrice(c.GenGPU.Name) + float64(c.GPUs-c.GenGPUs)*AssumedPrice(c.TrainGPU.Name)
	best, homo, err := Search(c, SearchTypes, budget)
	if err != nil || homo.Rate == 0 {
		return nil
	}
	return []strategy.Part{strategy.Figure(fmt.Sprintf("at the assumed ${} an hour the best pools of one type are %d + %d %s, {} steps/s: this run is {}× as fast; the search's best is %d %s + %d %s",
		homo.GenGPUs, homo.TrainGPUs, homo.GenGPU, best.GenGPUs, best.GenGPU, best.TrainGPUs, best.TrainGPU),
		strategy.Value{V: budget, Unit: strategy.Fixed2}, strategy.Value{V: homo.Rate, Unit: strategy.Sig3}, strategy.Value{V: simulated / homo.Rate, Unit: strategy.Fixed2})}
}
