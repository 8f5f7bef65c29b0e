//go:build !js

package plan

import (
	"errors"

	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/training"
)

// Evaluate prices one plan outside a search, the way a search prices the
// plans it simulates: screened (its exact peak memory and work bound) and
// simulated at analytic fidelity. The scenario may lie outside the search
// space (another layer split, a hand-picked schedule): it is how a page
// sets a published layout beside a search's best plan. A plan that does
// not fit is returned unsimulated, with status OutOfMemory.
func Evaluate(s scenario.Scenario) (*Plan, error) {
	s.Fidelity = taskgraph.Analytic
	p := &Plan{Scenario: s, Family: family(s.Parallel)}
	screen(p, training.NewEstimator())
	if p.err != nil {
		return nil, p.err
	}
	if p.Status == OutOfMemory {
		return p, nil
	}
	simulate(p, taskgraph.Analytic)
	if p.err != nil {
		return nil, p.err
	}
	p.Status = Simulated
	if p.Result.OOM {
		p.Status, p.Fits = OutOfMemory, false
	}
	return p, nil
}

// Against is p's Breakdown against the search's best plan (Why's, for a
// plan from Evaluate or from the search), with role naming it.
func (r *Result) Against(p *Plan, role string) (Breakdown, error) {
	if len(r.Plans) == 0 || r.Plans[0].Status != Best {
		return Breakdown{}, errors.New("plan: the search found no plan that fits")
	}
	return breakdown(p, r.Plans[0], role), nil
}
