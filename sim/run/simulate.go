package run

import (
	"fmt"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/splitlearn"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Simulate runs the scenario and returns its timeline. The scenario is
// validated first; the result passes timeline.Validate.
//
// Data parallelism: every GPU runs a forward then a backward span (the
// synthetic durations of the scenario, spread by its jitter), then the GPUs
// sum their gradients with an all-reduce over the links. A GPU joins the
// all-reduce as soon as its own backward ends; the schedule's dependencies
// make the others wait for it.
//
// Collective: the scenario's collective alone, from time 0, as nccl-tests
// would run it.
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	switch s.Strategy {
	case scenario.StrategyTraining:
		return simulateTraining(s)
	case scenario.StrategyParameterServer:
		return simulateParameterServer(s)
	case scenario.StrategyLocalSGD:
		return simulateLocalSGD(s)
	case scenario.StrategySplitLearning:
		c, err := s.SplitConfig()
		if err != nil {
			return nil, err
		}
		return splitlearn.Simulate(c)
	case scenario.StrategyRLHF:
		return simulateRLHF(s)
	case scenario.StrategyInference:
		return simulateInference(s)
	}
	t, err := Topology(s)
	if err != nil {
		return nil, err
	}
	n := s.NumGPUs()
	sch, err := schedule(s, t)
	if err != nil {
		return nil, err
	}
	g := taskgraph.New(t, s.Title())
	g.Reserve(2*n+len(sch.Transfers), len(sch.Transfers), 0)
	gpus := make([]int, n)
	for i := range gpus {
		gpus[i] = i
	}
	if s.Strategy == scenario.StrategyCollective {
		g.AddSchedule(sch, gpus, nil, "")
		return g.Finish()
	}
	// The seed is the only source of randomness (math/rand/v2's PCG, seeded).
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
	g.AddSchedule(sch, gpus, backward, "")
	return g.Finish()
}

// Topology builds the scenario's hardware: a cluster of catalog parts when
// cluster.gpu is set; otherwise ideal links of link.bandwidth and
// link.latency, joining the GPUs in a ring for the ring algorithm (so the
// picture is the textbook one) or through one ideal switch for the others.
func Topology(s scenario.Scenario) (*topo.Topology, error) {
	n := s.NumGPUs()
	if s.Cluster.GPU != "" {
		per := s.Cluster.GPUsPerNode
		if per == 0 {
			per = n
		}
		b, err := cluster.Build(cluster.Spec{GPU: s.Cluster.GPU, Nodes: max(1, s.Cluster.Nodes), PerNode: per,
			Intra: s.Cluster.Intra, Inter: s.Cluster.Inter, Network: topo.Network(s.Cluster.Network)})
		if err != nil {
			return nil, err
		}
		return b.Topology, nil
	}
	if s.Collective.Algorithm == scenario.AlgorithmRing {
		return topo.Ring(n, s.Link.Bandwidth, s.Link.Latency), nil
	}
	return topo.Switched(n, topo.Port{Bandwidth: s.Link.Bandwidth, Latency: s.Link.Latency, Kind: "ideal"}), nil
}

// schedule builds the scenario's collective; "auto" is resolved on the
// topology's bottleneck α and bandwidth.
func schedule(s scenario.Scenario, t *topo.Topology) (collective.Schedule, error) {
	n := s.NumGPUs()
	gpus := make([]int, n)
	for i := range gpus {
		gpus[i] = i
	}
	alpha, bw, err := Bottleneck(t, gpus)
	if err != nil {
		return collective.Schedule{}, err
	}
	per := s.Cluster.GPUsPerNode
	if per == 0 {
		per = n
	}
	cfg := collective.Config{Ranks: n, Nodes: n / per, PerNode: per, Bytes: s.Collective.Size,
		Chunks: s.Collective.Chunks, Alpha: alpha, Bandwidth: bw}
	sch, err := collective.New(s.Collective.Op, s.Collective.Algorithm, cfg)
	if err != nil {
		return collective.Schedule{}, fmt.Errorf("collective: %w", err)
	}
	return sch, nil
}
