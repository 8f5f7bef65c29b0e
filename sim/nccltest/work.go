package nccltest

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
)

// Work bounds a lone collective: no spans, and the transfers of its
// schedule, collective.Messages (e.g. 2(n−1)·n·k for a ring all-reduce of
// n GPUs and k chunks); events and memory follow from them (budget.Of).
func (Strategy) Work(s scenario.Scenario) budget.Work {
	return budget.Of(budget.Items{Transfers: Transfers(s), GPUs: s.NumGPUs(), Ports: budget.MeshPorts(&s)})
}

// Transfers bounds the messages of the scenario's collective, with the
// fields that drive it: "512 GPUs × 64 collective.chunks (ring
// all-reduce: 2(n−1)·n·k)". "auto" is resolved as Plan resolves it.
func Transfers(s scenario.Scenario) budget.Count {
	n := s.NumGPUs()
	cfg := Config(s)
	algo := s.Collective.Algorithm
	// Resolved as Plan resolves it, with the scenario's protocol, on a
	// mesh's own channel layout; a topology that does not build is
	// bounded over every algorithm (collective.Messages).
	if t, err := Topology(s); err == nil {
		cfg.Mesh = t.DirectPorts
		if algo == "auto" {
			o := Options{Protocol: s.Collective.Protocol}
			if c, err := ChooseWith(t, s.Collective.Op, algo, o, cfg, taskgraph.Identity(n)); err == nil {
				algo = c.Picked()
			}
		}
	}
	if inNetwork(algo) {
		return budget.Count{} // one analytic collective, no messages
	}
	c := budget.Count{N: collective.Messages(s.Collective.Op, algo, cfg), Field: "gpus",
		Why: fmt.Sprintf("%d GPUs (%s %s)", n, s.Collective.Algorithm, collective.Label(s.Collective.Op)),
		Fix: "use fewer GPUs"}
	if k := max(s.Collective.Chunks, 1); k > 1 {
		c.Why = fmt.Sprintf("%d GPUs × %d collective.chunks (%s %s)", n, k, s.Collective.Algorithm, collective.Label(s.Collective.Op))
		c.Field, c.Fix = "collective.chunks", "lower collective.chunks or use fewer GPUs"
	}
	return c
}
