//go:build !js

package timeline

import "paraplay/sim/cost"

// costIteration is the iteration as package cost takes it: its time and
// tokens, and the sum over GPUs of each one's power at its busy fraction
// (cost.Power), idle power and price. ok is false for a run without a cost
// basis (no token budget, or not a training run).
func (tl *Timeline) costIteration(s *Summary) (cost.Iteration, cost.Settings, float64, bool) {
	if tl.Training == nil || tl.Training.Cost == nil || len(tl.Training.Cost.Ratings) == 0 {
		return cost.Iteration{}, cost.Settings{}, 0, false
	}
	b := tl.Training.Cost
	it := cost.Iteration{Seconds: tl.End.Seconds(), Tokens: tl.Training.Tokens, GPUs: len(s.GPUs), Assumed: b.Settings.GPUHour == 0}
	for i, g := range s.GPUs {
		r := b.Ratings[0]
		if len(b.Ratings) == len(s.GPUs) {
			r = b.Ratings[i]
		}
		it.Power += cost.Power(r.TDP, r.Idle, g.Busy)
		it.Idle += r.Idle
		if it.Assumed {
			it.Price += r.Price
		} else {
			it.Price += b.Settings.GPUHour
		}
	}
	return it, b.Settings, b.Tokens, true
}

// summarizeCost records the run's cost iteration in s and, with a token
// budget, its estimate.
func (tl *Timeline) summarizeCost(s *Summary) {
	it, set, tokens, ok := tl.costIteration(s)
	if !ok {
		return
	}
	s.costBasis = summaryCost{it, set, tokens, true}
	if tokens > 0 {
		e := cost.Of(it, tokens, set)
		s.Estimate = &e
	}
}
