//go:build !js

package opgraph

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// The planner is host-only: the site runs it when it writes a demo's
// caption, and the browser replays the split it chose.

// PlanStages is DAPPLE's planner over r's GPUs: every number of stages
// and every split of the GPUs among them (2^(G−1) splits, each with the
// stage cut proportional to its shares), each simulated, and the fastest
// returned with its makespan. r.Split must be Model.
func PlanStages(g Graph, r Run) (Run, units.Time, error) {
	return planStages(g, r, hostScenario(r))
}

// planStages is PlanStages on base's cluster.
func planStages(g Graph, r Run, base scenario.Scenario) (Run, units.Time, error) {
	var best Run
	bestT := units.Time(-1)
	G := r.GPUs
	for mask := 0; mask < 1<<(G-1); mask++ {
		var reps []int
		run := 1
		for k := 0; k < G-1; k++ {
			if mask&(1<<k) != 0 {
				reps = append(reps, run)
				run = 0
			}
			run++
		}
		reps = append(reps, run)
		q := r
		q.StageReplicas = reps
		if len(cuts(g)) < len(reps)-1 {
			continue
		}
		tl, err := simulate(g, q, base)
		if err != nil {
			return Run{}, 0, err
		}
		if bestT < 0 || tl.End < bestT {
			best, bestT = q, tl.End
		}
	}
	if bestT < 0 {
		return Run{}, 0, fmt.Errorf("opgraph: no split of %d GPUs fits %q", G, g.Name)
	}
	return best, bestT, nil
}
