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
// n GPUs and k chunks); events and memory follow from them (budget.Of),
// plus what building the schedule allocates besides (collective.BuildBytes).
func (Strategy) Work(s scenario.Scenario) budget.Work {
	algo, cfg := boundAlgorithm(s)
	it := budget.Items{Transfers: transfersOf(s, algo, cfg), GPUs: s.NumGPUs(), Ports: budget.MeshPorts(&s)}
	if _, ok := s.Slice(); ok && collective.Op(s.Collective.Op) == collective.OpAllToAll {
		it.Events = it.Transfers.Times(float64(budget.EventsPerItem+it.GPUs), "")
		it.Events.Why = fmt.Sprintf("(%d + %d chips) events a message × %s", budget.EventsPerItem, it.GPUs, it.Transfers.Why)
	}
	w := budget.Of(it)
	// The schedule's builder keeps a table by rank and chunk, which a
	// halving-doubling all-reduce on hundreds of GPUs makes larger than
	// its messages (collective.BuildBytes).
	if algo != AlgorithmTorus && !inNetwork(algo) {
		w.Memory.N += collective.BuildBytes(s.Collective.Op, algo, cfg)
	}
	return w
}

// boundAlgorithm is the scenario's algorithm and configuration as Plan
// resolves them ("auto" with the scenario's protocol, on a mesh's own
// channel layout), or AlgorithmTorus on a TPU slice; an algorithm left
// "auto" (a topology that does not build) is bounded over every
// algorithm by collective.Messages and BuildBytes.
func boundAlgorithm(s scenario.Scenario) (string, collective.Config) {
	cfg := Config(s)
	algo := onSlice(s)
	if algo == AlgorithmTorus {
		return algo, cfg
	}
	if t, err := Topology(s); err == nil {
		cfg.Mesh = t.DirectPorts
		if algo == "auto" {
			o := Options{Protocol: s.Collective.Protocol}
			if c, err := ChooseWith(t, s.Collective.Op, algo, o, cfg, taskgraph.Identity(s.NumGPUs())); err == nil {
				algo = c.Picked()
			}
		}
	}
	return algo, cfg
}

// An all-to-all on a TPU slice is the one collective whose events are not
// a few per message. Its n(n−1) messages start together on paths of
// different lengths through shared torus links, so they finish at many
// instants, and each finish re-rates the messages that share a link with
// it (max-min fair sharing, package fabric). Measured (TestTorusAllToAllEvents):
// 4–9 events a message up to 64 chips, 56 on an 8×16 v5e slice with
// wraparound and 131 on 16×16 (256 chips, 8.5 M events), against about 2
// for an all-to-all through switches; so the bound allows EventsPerItem + n
// a message, which holds on every shape tried with a margin of 2 or more.

// Transfers bounds the messages of the scenario's collective, with the
// fields that drive it: "512 GPUs × 64 collective.chunks (ring
// all-reduce: 2(n−1)·n·k)". "auto" is resolved as Plan resolves it.
func Transfers(s scenario.Scenario) budget.Count {
	algo, cfg := boundAlgorithm(s)
	return transfersOf(s, algo, cfg)
}

// transfersOf is Transfers for the algorithm and configuration
// boundAlgorithm resolved.
func transfersOf(s scenario.Scenario, algo string, cfg collective.Config) budget.Count {
	n := s.NumGPUs()
	if algo == AlgorithmTorus {
		return torusMessages(s)
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
