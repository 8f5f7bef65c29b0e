//go:build !js

package opgraph

import (
	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// Work bounds a run of n GPUs (its graph and Run, FromScenario):
//
//	model:  spans 2m·k for m microbatches and k stages, transfers 2m·(k − 1)
//	        sends and each stage's ring all-reduce, 2(d−1)·d on d GPUs
//	data:   the model split of one stage of n GPUs, m = n
//	hybrid: spans 2·Σ steps + 2n over every operator's steps, transfers as
//	        many and the softmax's ring, 2n², on more than one GPU (a
//	        step's output sent up, its gradient down, the softmax's share
//	        out and back), none on one
//	flexflow: spans 2n a operator, transfers 4n(n−1) an operator with
//	        parameters (two ring all-gathers forward, one ring all-reduce
//	        backward, at most)
//	dlplacer: spans one a branch, transfers 2n (the input out, the
//	        outputs back)
//
// with the graph's operators as ops (their memory).
func (Strategy) Work(s scenario.Scenario) budget.Work {
	g, r, err := FromScenario(&s)
	if err != nil || r.GPUs < 1 || r.GPUs > 8 {
		return budget.Work{}
	}
	n := float64(r.GPUs)
	it := budget.Items{GPUs: r.GPUs, Ports: budget.MeshPorts(&s)}
	fix := "lower graph.microbatches or the GPUs"
	switch {
	case r.Search == SearchFlexFlow:
		var p float64
		for _, o := range g.Ops {
			if o.Params() > 0 {
				p++
			}
		}
		why := "2 × the GPUs × the graph's operators (graph.model)"
		it.Spans = budget.Count{N: 2 * n * float64(len(g.Ops)), Why: why, Field: section + ".model", Fix: "use fewer GPUs"}
		it.Transfers = budget.Count{N: 4 * n * (n - 1) * p, Why: why, Field: section + ".model", Fix: "use fewer GPUs"}
	case r.Search == SearchDLPlacer:
		it.Spans = budget.Count{N: float64(len(g.Ops)), Why: "a span a branch", Field: section + ".model"}
		it.Transfers = budget.Count{N: 2 * n, Why: "the input out to each GPU, its outputs back", Field: section + ".model"}
	case r.Split == Hybrid:
		var steps float64 // every operator's steps: the LSTMs', the embeddings' and the tail's
		for _, o := range g.Ops {
			steps += float64(o.Steps)
		}
		it.Spans = budget.Count{N: 2*steps + 2*n, Why: "2 × the steps of every operator (graph.words)", Field: section + ".words", Fix: "lower graph.words"}
		if n > 1 {
			it.Transfers = budget.Count{N: 2*steps + 2*n + 2*n*n, Why: it.Spans.Why, Field: section + ".words", Fix: "lower graph.words"}
		}
	default:
		m, reps := float64(r.Microbatches), r.replicas()
		if r.Split == Data {
			m, reps = n, []int{r.GPUs}
		}
		k, rings := float64(len(reps)), 0.0
		for _, d := range reps {
			rings += 2 * float64(d-1) * float64(d)
		}
		it.Spans = budget.Count{N: 2 * m * k, Why: "2 × graph.microbatches × the stages", Field: section + ".microbatches", Fix: fix}
		it.Transfers = budget.Count{N: 2*m*(k-1) + rings, Why: it.Spans.Why + ", and each stage's ring", Field: section + ".microbatches", Fix: fix}
		if hasSkips(g) && r.Split == Model { // LAMP: a message each way between any two stages (lamp.go)
			it.Transfers.N = m * k * (k - 1)
		}
	}
	// The graph itself: its operators, built once.
	it.Ops = max(it.Ops, it.Spans.N) + float64(len(g.Ops))
	return budget.Of(it)
}
