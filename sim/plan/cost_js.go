//go:build js

package plan

import "paraplay/sim/cost"

// Cost prices nothing in the browser, which shows no cost yet (cost.go is
// the host's; the wasm budget).
func (p *Plan) Cost(float64) (cost.Estimate, bool) { return cost.Estimate{}, false }
