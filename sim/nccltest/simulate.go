package nccltest

import (
	"fmt"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/scenario"
	"paraplay/sim/taskgraph"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
)

// Simulate runs the scenario's collective alone, from time 0, as
// nccl-tests would run it, with collective.protocol's protocol (Plan). s
// must be valid (run.Simulate validates it).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	t, err := Topology(s)
	if err != nil {
		return nil, err
	}
	if inNetwork(s.Collective.Algorithm) {
		return simulateInNetwork(s, t)
	}
	p, err := Plan(s, t)
	if err != nil {
		return nil, err
	}
	g := taskgraph.New(p.Topology, s.Title())
	g.Reserve(2*s.NumGPUs()+len(p.Schedule.Transfers), len(p.Schedule.Transfers), 0)
	p.Add(g, taskgraph.Identity(s.NumGPUs()), nil)
	return g.Finish("nccltest")
}

// Topology builds the scenario's hardware: a cluster of catalog parts when
// cluster.gpu is set; otherwise ideal links of link.bandwidth and
// link.latency, joining the GPUs in a ring for the ring algorithm (so the
// picture is the textbook one) or through one ideal switch for the others.
func Topology(s scenario.Scenario) (*topo.Topology, error) {
	n := s.NumGPUs()
	if sl, ok := s.Slice(); ok {
		b, err := cluster.BuildSlice(sl)
		if err != nil {
			return nil, err
		}
		return b.Topology, nil
	}
	if s.Cluster.GPU != "" {
		per := s.Cluster.GPUsPerNode
		if per == 0 {
			per = n
		}
		b, err := cluster.Build(cluster.Spec{GPU: s.Cluster.GPU, Nodes: max(1, s.Cluster.Nodes), PerNode: per,
			Intra: s.Cluster.Intra, Inter: s.Cluster.Inter, Network: topo.Network(s.Cluster.Network), Oversubscription: s.Cluster.Oversubscription, Calibration: s.Calibration})
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

// Config is the scenario's collective: its GPUs as nodes of
// cluster.gpus_per_node, its size, chunks and channels (0 read as
// collective.DefaultChannels).
func Config(s scenario.Scenario) collective.Config {
	n := s.NumGPUs()
	per := s.Cluster.GPUsPerNode
	if per == 0 {
		per = n
	}
	cfg := collective.Config{Ranks: n, Nodes: n / per, PerNode: per, Bytes: s.Collective.Size,
		Chunks: s.Collective.Chunks, Channels: s.Collective.Channels}
	if cfg.Channels == 0 {
		cfg.Channels = collective.DefaultChannels(cfg.Nodes, cfg.PerNode)
	}
	return cfg
}

// Schedule builds the scenario's collective on its GPUs 0..n−1 of t;
// "auto" is Choose's pick. It prices the links as they are, whatever
// collective.protocol says (Plan applies it).
func Schedule(s scenario.Scenario, t *topo.Topology) (collective.Schedule, error) {
	s.Collective.Protocol = ProtocolNone
	p, err := Plan(s, t)
	return p.Schedule, err
}

// Planned is a scenario's collective ready to run: its schedule, the NCCL
// protocol it runs with and the topology as that protocol sees it.
type Planned struct {
	// Schedule is the collective's messages.
	Schedule collective.Schedule
	// Protocol is collective.protocol resolved (ChooseWith picks for
	// "auto"), or ProtocolNone.
	Protocol string
	// Topology is t as Protocol sees it (protocolView): the run's network.
	Topology *topo.Topology
}

// Plan builds the scenario's collective on its GPUs 0..n−1 of t with
// collective.protocol: none (the links as they are), a protocol, or
// "auto", which ChooseWith resolves with the algorithm, the pair of least
// predicted time, as NCCL's tuner does when NCCL_PROTO is unset.
func Plan(s scenario.Scenario, t *topo.Topology) (Planned, error) {
	if onSlice(s) == AlgorithmTorus {
		return torusPlan(s, t)
	}
	n := s.NumGPUs()
	alpha, bw, err := bottleneck(t, taskgraph.Identity(n))
	if err != nil {
		return Planned{}, err
	}
	cfg := Config(s)
	cfg.Alpha, cfg.Bandwidth, cfg.Mesh = alpha, bw, t.DirectPorts
	algo, proto := s.Collective.Algorithm, s.Collective.Protocol
	if algo == "auto" || proto == ProtocolAuto {
		choice, err := ChooseWith(t, s.Collective.Op, algo, Options{Protocol: proto}, cfg, taskgraph.Identity(n))
		if err != nil {
			return Planned{}, fmt.Errorf("collective: %w", err)
		}
		algo, proto = choice.Picked(), choice.PickedProtocol()
	}
	seen, err := protocolView(t, proto)
	if err != nil {
		return Planned{}, fmt.Errorf("collective.protocol: %w", err)
	}
	sch, err := collective.New(s.Collective.Op, algo, cfg)
	if err != nil {
		return Planned{}, fmt.Errorf("collective: %w", err)
	}
	return Planned{Schedule: sch, Protocol: proto, Topology: seen}, nil
}

// Add places the planned collective on g, rank r on gpus[r] after
// ready[r] (as taskgraph.Graph.AddSchedule), and records its protocol.
func (p Planned) Add(g *taskgraph.Graph, gpus, ready []int) (first int) {
	first = g.AddSchedule(p.Schedule, gpus, ready, "")
	cs := g.Timeline().Collectives
	cs[len(cs)-1].Protocol = p.Protocol
	return first
}
