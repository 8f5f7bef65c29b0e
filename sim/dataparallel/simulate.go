package dataparallel

import (
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Simulate runs the iteration and returns its timeline. s must be valid
// (run.Simulate validates it).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	t, err := nccltest.Topology(s)
	if err != nil {
		return nil, err
	}
	n := s.NumGPUs()
	sch, err := nccltest.Schedule(s, t)
	if err != nil {
		return nil, err
	}
	g := taskgraph.New(t, s.Title())
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
	g.AddSchedule(sch, taskgraph.Identity(n), backward, "")
	return g.Finish("dataparallel")
}
