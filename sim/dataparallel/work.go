package dataparallel

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
)

// Work bounds one data-parallel iteration of n GPUs: 2n spans (a forward
// and a backward each) and the transfers of its all-reduce
// (collective.Messages, 2(n−1)·n·k for a ring of k chunks).
func (Strategy) Work(s scenario.Scenario) budget.Work {
	n := s.NumGPUs()
	spans := budget.Count{N: 2 * float64(n), Why: fmt.Sprintf("2 × %d GPUs", n), Field: "gpus", Fix: "use fewer GPUs"}
	tr := nccltest.Transfers(s)
	if s.Fidelity == "detailed" || s.Fidelity == "auto" {
		tr.Fix += " (data parallelism simulates every message)"
	}
	return budget.Of(budget.Items{Spans: spans, Transfers: tr, GPUs: n, Ports: budget.MeshPorts(&s)})
}
