//go:build !js

package plan

import "paraplay/sim/cost"

// Cost is what training tokens costs on the plan (cost.Of of its
// simulated iteration, with the config's cost settings); ok is false for
// a plan that was not simulated.
func (p *Plan) Cost(tokens float64) (e cost.Estimate, ok bool) {
	if p.Result == nil || p.Result.cost.GPUs == 0 {
		return e, false
	}
	return cost.Of(p.Result.cost, tokens, p.Result.set), true
}
