package opgraph

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
)

// Work bounds a run of n GPUs (its graph and Run, FromScenario):
//
//	data:   spans 2n, transfers those of a ring all-reduce (nccltest.Transfers)
//	model:  spans 2m·k for m microbatches and k stages, transfers 2m·(k − 1)
//	hybrid: spans 2·Σ steps + 2·embeddings + 2n, transfers 2·(steps whose
//	        layer below is on another GPU) + 2n, as hybridGPUs places them
//
// with the graph's operators as ops (their memory), and, with
// graph.stage_replicas auto, every one of the planner's 2^(n−1)
// splits simulated first: k ≤ n, and the memory of each (as ops).
func (Strategy) Work(s scenario.Scenario) budget.Work {
	g, r, err := FromScenario(&s)
	if err != nil || r.GPUs < 1 || r.GPUs > 8 {
		return budget.Work{}
	}
	n := float64(r.GPUs)
	it := budget.Items{GPUs: r.GPUs, Ports: budget.MeshPorts(&s)}
	fix := "lower graph.microbatches or the GPUs"
	switch r.Split {
	case Data:
		it.Spans = budget.Count{N: 2 * n, Why: fmt.Sprintf("2 × %g GPUs", n), Field: "cluster.gpus_per_node", Fix: "use fewer GPUs"}
		it.Transfers = nccltest.Transfers(dataScenario(s, "", 1, 1))
	case Hybrid:
		steps, cross, emb := hybridCounts(g, r.GPUs)
		it.Spans = budget.Count{N: 2*steps + 2*emb + 2*n, Why: fmt.Sprintf("2 × %g LSTM steps", steps), Field: section + ".words", Fix: "lower graph.words"}
		it.Transfers = budget.Count{N: 2*cross + 2*n, Why: fmt.Sprintf("2 × %g steps sent between GPUs", cross), Field: section + ".words", Fix: "lower graph.words"}
	default:
		m, k := float64(r.Microbatches), float64(len(r.replicas()))
		plans := 1.0
		if SettingsOf(&s).StageReplicas == Auto {
			k, plans = n, float64(int(1)<<(r.GPUs-1))
		}
		it.Spans = budget.Count{N: 2 * m * k, Why: fmt.Sprintf("2 × %g microbatches × %g stages", m, k), Field: section + ".microbatches", Fix: fix}
		it.Transfers = budget.Count{N: 2 * m * (k - 1), Why: it.Spans.Why, Field: section + ".microbatches", Fix: fix}
		it.Ops = plans * (it.Spans.N + 4*it.Transfers.N + k)
		it.Graphs = plans
	}
	// The graph itself: its operators, built once.
	it.Ops = max(it.Ops, it.Spans.N) + float64(len(g.Ops))
	return budget.Of(it)
}

// hybridCounts is the hybrid split's LSTM steps, the steps whose layer
// below runs on another GPU (plus the state a decoder starts from), and
// the embeddings.
func hybridCounts(g Graph, gpus int) (steps, cross, emb float64) {
	tail := hybridTail(g)
	on := hybridGPUs(g, gpus)
	for i, o := range g.Ops[:tail] {
		if o.Kind == Embedding {
			emb++
			continue
		}
		steps += float64(o.Steps)
		for k, j := range o.Inputs {
			switch {
			case on[j] == on[i]:
			case k == 0 && g.Ops[j].Kind == LSTM:
				cross += float64(o.Steps)
			default:
				cross++
			}
		}
	}
	return steps, cross, emb
}
