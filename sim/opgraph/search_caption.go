//go:build !js

package opgraph

import (
	"fmt"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// searchParts are the caption parts of a graph.search run (search.go).
//
// FlexFlow: the walk (its steps and seed, the best plan's FlexCost and the
// step that found it, beside pure data parallelism, every operator split
// by parameters, and the exhaustive optimum when at most 20 operators have
// parameters), the operators it split by parameters, each improvement of
// the best plan over the steps, and the simulated iteration beside the
// plan's FlexCost, which the play follows step for step (equal within
// rounding).
//
// DLPlacer: the placement and its assignments tried, the module's time
// beside one GPU's (Σ of the branches), and beside its critical path T
// (place.go), equal when no two sends share a link (at most one remote GPU,
// or free links); else the difference is the sends' sharing.
func searchParts(s scenario.Scenario, g Graph, r Run, sum timeline.Summary) ([]strategy.Part, error) {
	gpu, err := r.check(g)
	if err != nil {
		return nil, err
	}
	plan, cost, walk, on, err := searchResult(g, r, gpu, s)
	if err != nil {
		return nil, err
	}
	if r.Search == SearchDLPlacer {
		return placeParts(s, g, r, sum, on, cost), nil
	}
	l, _ := searchLinks(s)
	uniform := func(x Split) units.Time {
		p := make([]Split, len(g.Ops))
		for i := range p {
			p[i] = x
		}
		return units.Round(FlexCost(g, p, r.Batch, r.GPUs, gpu, l))
	}
	var byParams []string
	k := 0
	for i, o := range g.Ops {
		if o.Params() > 0 {
			k++
			if plan[i] == ByParams {
				byParams = append(byParams, o.Name)
			}
		}
	}
	last := walk[len(walk)-1]
	head := fmt.Sprintf("FlexFlow's search, %d MCMC steps from data parallelism (seed %d, β %d): best plan {} at step %d, against {} all by samples (data parallel, {}× as fast) and {} all by parameters",
		r.Steps, r.Seed, flexBeta, last.Step)
	vals := []strategy.Value{strategy.Nanos(units.Round(cost)), strategy.Nanos(uniform(BySamples)),
		strategy.Of(float64(uniform(BySamples))/float64(units.Round(cost)), strategy.Sig3), strategy.Nanos(uniform(ByParams))}
	if _, ex := FlexExhaustive(g, r.Batch, r.GPUs, gpu, l); k <= 20 {
		head += fmt.Sprintf("; the exhaustive optimum over all %d plans {}", 1<<k)
		vals = append(vals, strategy.Nanos(units.Round(ex)))
	}
	chosen := "none: every operator by samples"
	if len(byParams) > 0 {
		chosen = strings.Join(byParams, ", ") + fmt.Sprintf("; the other %d operators with weights by samples", k-len(byParams))
	}
	steps, svals := "the best plan over the walk:", []strategy.Value(nil)
	for i, w := range walk {
		if i > 0 {
			steps += ","
		}
		steps += fmt.Sprintf(" step %d {}", w.Step)
		svals = append(svals, strategy.Nanos(units.Round(w.Cost)))
	}
	return []strategy.Part{strategy.Figure(head, vals...),
		strategy.Figure("split by parameters (output channels, the output all-gathered): " + chosen),
		strategy.Figure(steps, svals...),
		strategy.Compare(strategy.Check{Name: "FlexFlow plan's iteration", Formula: "FlexCost",
			Source: "the per-operator compute and ring collectives of flexflow.go, added without overlap", Tolerance: 1e-4},
			"the best plan played: {} simulated; its FlexCost {}", float64(sum.Iteration), float64(units.Round(cost)), strategy.Nanoseconds)}, nil
}

// placeParts are DLPlacer's caption parts (searchParts).
func placeParts(s scenario.Scenario, g Graph, r Run, sum timeline.Summary, on []int, cost float64) []strategy.Part {
	gpu, _ := r.check(g)
	br := branchesOf(g)
	var one units.Time
	remote := map[int]bool{}
	where := ""
	for i, b := range br {
		one += branchTime(b, r.Batch, gpu)
		if on[i] > 0 {
			remote[on[i]] = true
		}
		if i > 0 {
			where += ","
		}
		where += fmt.Sprint(on[i])
	}
	n := 1
	for range br {
		n *= r.GPUs
	}
	t := units.Round(cost)
	parts := []strategy.Part{
		strategy.Figure(fmt.Sprintf("DLPlacer's placement of the module's %d branches on %d GPUs, best of all %d assignments: GPUs %s; the module (forward and backward, %d images) {} against {} on one GPU, {}× as fast",
			len(br), r.GPUs, n, where, r.Batch), strategy.Nanos(sum.Iteration), strategy.Nanos(one), strategy.Of(float64(one)/float64(sum.Iteration), strategy.Sig3))}
	if len(remote) <= 1 || s.Cluster.Network == "ideal" {
		return append(parts, strategy.Compare(strategy.Check{Name: "DLPlacer placement's critical path", Formula: "max(Σ t_b on GPU 0, max_g c_in + Σ t_b on g + c_g)",
			Source: "the slowest GPU's branches plus its sends, when no two sends share a link", Tolerance: 1e-4},
			"simulated {}; critical path {}", float64(sum.Iteration), float64(t), strategy.Nanoseconds))
	}
	return append(parts, strategy.Figure("critical path if no two sends shared a link {}: GPU 0's port, shared by the sends, adds {}", strategy.Nanos(t), strategy.Nanos(sum.Iteration-t)))
}
