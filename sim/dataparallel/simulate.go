package dataparallel

import (
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Simulate runs the iteration and returns its timeline. s must be valid
// (run.Simulate validates it).
//
// One GPU is the degenerate case: an all-reduce over one rank has nothing
// to exchange and costs nothing, so the iteration is its forward and
// backward alone, with no collective and no message.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	n := s.NumGPUs()
	t, err := topology(s)
	if err != nil {
		return nil, err
	}
	p := nccltest.Planned{Topology: t}
	if n > 1 {
		if p, err = nccltest.Plan(s, t); err != nil {
			return nil, err
		}
	}
	sch := p.Schedule
	g := taskgraph.New(p.Topology, s.Title())
	g.Reserve(2*n+len(sch.Transfers), len(sch.Transfers), 0)
	// The seed is the only source of randomness.
	rng := s.Rand()
	jitter := func(d units.Time) units.Time {
		f := 1 + s.Compute.Jitter*(2*rng.Float64()-1)
		return max(1, units.Round(d.Seconds()*f))
	}
	backward := make([]int, n)
	for i := 0; i < n; i++ {
		f := g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Forward, Label: "forward"}, jitter(s.Compute.Forward))
		backward[i] = g.AddCompute(timeline.Span{GPU: i, Kind: timeline.Backward, Label: "backward"}, jitter(s.Compute.Backward), f)
	}
	if n > 1 {
		p.Add(g, taskgraph.Identity(n), backward)
	}
	return g.Finish("dataparallel")
}

// topology is the scenario's network; a lone GPU without a cluster preset
// sits on an ideal switch port (a ring of one would be a link to itself).
func topology(s scenario.Scenario) (*topo.Topology, error) {
	if s.NumGPUs() == 1 && s.Cluster.GPU == "" {
		return topo.Switched(1, topo.Port{Bandwidth: s.Link.Bandwidth, Latency: s.Link.Latency, Kind: "ideal"}), nil
	}
	return nccltest.Topology(s)
}
