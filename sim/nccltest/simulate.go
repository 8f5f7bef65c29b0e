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
// nccl-tests would run it. s must be valid (run.Simulate validates it).
func Simulate(s scenario.Scenario) (*timeline.Timeline, error) {
	t, err := Topology(s)
	if err != nil {
		return nil, err
	}
	if inNetwork(s.Collective.Algorithm) {
		return simulateInNetwork(s, t)
	}
	sch, err := Schedule(s, t)
	if err != nil {
		return nil, err
	}
	g := taskgraph.New(t, s.Title())
	g.Reserve(2*s.NumGPUs()+len(sch.Transfers), len(sch.Transfers), 0)
	g.AddSchedule(sch, taskgraph.Identity(s.NumGPUs()), nil, "")
	return g.Finish("nccltest")
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
// "auto" is Choose's pick.
func Schedule(s scenario.Scenario, t *topo.Topology) (collective.Schedule, error) {
	n := s.NumGPUs()
	alpha, bw, err := bottleneck(t, taskgraph.Identity(n))
	if err != nil {
		return collective.Schedule{}, err
	}
	cfg := Config(s)
	cfg.Alpha, cfg.Bandwidth = alpha, bw
	algo := s.Collective.Algorithm
	if algo == "auto" {
		choice, err := Choose(t, s.Collective.Op, cfg, taskgraph.Identity(n))
		if err != nil {
			return collective.Schedule{}, fmt.Errorf("collective: %w", err)
		}
		algo = choice.Picked()
	}
	sch, err := collective.New(s.Collective.Op, algo, cfg)
	if err != nil {
		return collective.Schedule{}, fmt.Errorf("collective: %w", err)
	}
	return sch, nil
}
