package training

import (
	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// ringConfig is the ring collective over gpus of the given size: on
// channels, one per NIC of a node (collective.DefaultChannels), when the
// group spans several nodes with the same number of its GPUs in each, in
// node order — a data-parallel group of whole nodes, or of one TP rank
// per node's slot — as NCCL builds one ring per NIC. Any other group runs
// one ring in its own order.
func (tr *iteration) ringConfig(gpus []int, bytes units.Bytes) collective.Config {
	cfg := collective.Config{Ranks: len(gpus), Bytes: bytes}
	nodes, per, ok := tr.nodeBlocks(gpus)
	if !ok {
		return cfg
	}
	cfg.Nodes, cfg.PerNode, cfg.Mesh = nodes, per, tr.topo.DirectPorts
	cfg.Channels = collective.DefaultChannels(nodes, per)
	return cfg
}

// nodeBlocks reports whether gpus come in blocks of per GPUs of one node,
// each block a different node, and how many blocks there are.
func (tr *iteration) nodeBlocks(gpus []int) (nodes, per int, ok bool) {
	node := func(i int) int { return tr.topo.GPUs[gpus[i]].Node }
	for per = 1; per < len(gpus) && node(per) == node(0); per++ {
	}
	if per < 2 || per == len(gpus) || len(gpus)%per != 0 {
		return 0, 0, false
	}
	seen := map[int]bool{}
	for b := 0; b < len(gpus); b += per {
		if seen[node(b)] {
			return 0, 0, false
		}
		seen[node(b)] = true
		for i := b; i < b+per; i++ {
			if node(i) != node(b) {
				return 0, 0, false
			}
		}
	}
	return len(gpus) / per, per, true
}

// ringTime is the closed form of the ring cfg over gpus: on channels,
// collective.ChannelRingTime (MeshChannelRingTime on a mesh) on the path between the group's first two
// GPUs (NVLink) and from its first GPU to its first GPU of the next node
// (the NIC); otherwise collective.Time on the bottleneck path between
// neighbouring ranks.
func (tr *iteration) ringTime(op collective.Op, cfg collective.Config, gpus []int) (float64, error) {
	if cfg.Channels > 1 {
		ia, ib, err := tr.paths.Cost(gpus[0], gpus[1])
		if err != nil {
			return 0, err
		}
		ea, eb, err := tr.paths.Cost(gpus[0], gpus[cfg.PerNode])
		if err != nil {
			return 0, err
		}
		if cfg.Mesh {
			return collective.MeshChannelRingTime(string(op), cfg.Nodes, cfg.PerNode, cfg.Channels, 1, cfg.Bytes, ia, ib, ea, eb), nil
		}
		return collective.ChannelRingTime(string(op), cfg.Nodes, cfg.PerNode, cfg.Channels, 1, cfg.Bytes, ia, ib, ea, eb), nil
	}
	alpha, bw, err := tr.paths.Bottleneck(gpus)
	if err != nil {
		return 0, err
	}
	if tr.algorithm(gpus) == "direct" {
		return collective.DirectMeshPhases(op, len(gpus), cfg.Bytes, collective.Link{Alpha: alpha, Bandwidth: bw}), nil
	}
	return collective.Time(string(op), "ring", cfg, alpha, bw)
}

// algorithm is the data-parallel collectives' algorithm over gpus: the
// ring, or, inside one node whose GPUs are joined pairwise (an MI300X
// mesh, topo.Topology.DirectPorts), the direct one, which drives every
// cable at once where a ring would use one (collective.Direct).
func (tr *iteration) algorithm(gpus []int) string {
	if !tr.topo.DirectPorts || len(gpus) < 2 {
		return "ring"
	}
	for _, g := range gpus {
		if tr.topo.GPUs[g].Node != tr.topo.GPUs[gpus[0]].Node {
			return "ring"
		}
	}
	return "direct"
}
