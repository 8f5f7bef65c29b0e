package scenario

import (
	"slices"
	"strings"

	"paraplay/sim/collective"
	"paraplay/sim/hw"
)

// validateCluster checks the cluster section against the catalog.
func (s *Scenario) validateCluster(keys Keys, bad Reporter) {
	c := s.Cluster
	if c.Nodes < 0 || c.Nodes > MaxNodes {
		bad("cluster.nodes", "is %d; allowed 1..%d", c.Nodes, MaxNodes)
	}
	if c.GPUsPerNode < 0 || c.GPUsPerNode > MaxPerNode {
		bad("cluster.gpus_per_node", "is %d; allowed 1..%d (or 0: all GPUs in one node)", c.GPUsPerNode, MaxPerNode)
	}
	if c.GPUsPerNode == 0 && c.Nodes > 1 {
		bad("cluster.gpus_per_node", "is 0 with %d nodes; give the GPUs per node", c.Nodes)
	}
	lo, hi := keys.GPURange()
	if n := s.NumGPUs(); c.GPUsPerNode > 0 && (n > hi || n < lo) {
		bad("cluster.gpus_per_node", "nodes × gpus_per_node = %d; allowed %d..%d GPUs for strategy %s", n, lo, hi, s.Strategy)
	}
	if c.GPU == "" {
		for _, f := range []struct{ field, v string }{{"cluster.intra", c.Intra}, {"cluster.inter", c.Inter}} {
			if f.v != "" {
				bad(f.field, "needs cluster.gpu: presets apply to a cluster of catalog GPUs")
			}
		}
		if c.Nodes > 1 {
			bad("cluster.nodes", "is %d without cluster.gpu; several nodes need catalog GPUs (e.g. h100-sxm)", c.Nodes)
		}
	} else if _, err := hw.LookupGPU(c.GPU); err != nil {
		bad("cluster.gpu", "%v", err)
	}
	for _, f := range []struct{ field, v string }{{"cluster.intra", c.Intra}, {"cluster.inter", c.Inter}} {
		if f.v != "" {
			if _, err := hw.LookupLink(f.v); err != nil {
				bad(f.field, "%v", err)
			}
		}
	}
	if c.Network != "" && c.Network != "rail-optimized" && c.Network != "fat-tree" && c.Network != "ideal" {
		bad("cluster.network", "%q is not known; allowed: rail-optimized, fat-tree, ideal", c.Network)
	}
	if o := c.Oversubscription; o != 0 && (!(o >= 1 && o <= 64) || c.Network != "fat-tree") {
		bad("cluster.oversubscription", "is %g; allowed 1..64 with cluster.network fat-tree (0 = full bisection)", o)
	}
	s.validateTorus(keys, bad)
}

// validateCollective checks the collective section.
func (s *Scenario) validateCollective(keys Keys, bad Reporter) {
	c := s.Collective
	algos, more := collective.Algorithms(c.Op), keys.more(c.Op)
	switch {
	case algos == nil:
		bad("collective.op", "%q is not known; allowed: %s", c.Op, strings.Join(collective.Ops(), ", "))
	case keys.Op != "" && c.Op != keys.Op:
		bad("collective.op", "is %q; data parallelism sums gradients with %s", c.Op, keys.Op)
	case slices.Contains(more, c.Algorithm):
		// The strategy's own algorithm: its Check says where it fits.
	case !slices.Contains(algos, c.Algorithm):
		bad("collective.algorithm", "%q does not do %s; allowed: %s", c.Algorithm, c.Op, strings.Join(append(algos, more...), ", "))
	default:
		// The algorithm must fit the GPUs (halving_doubling on a power of
		// two, sendrecv on two), or the run fails after validation.
		n, per := s.NumGPUs(), s.Cluster.GPUsPerNode
		if per <= 0 {
			per = n
		}
		cfg := collective.Config{Ranks: n, Nodes: n / max(per, 1), PerNode: per, Chunks: c.Chunks}
		if _, err := collective.Resolve(c.Op, c.Algorithm, cfg, collective.DefaultAlpha, collective.DefaultBandwidth); err != nil && n >= MinGPUs {
			bad("collective.algorithm", "%s", strings.TrimPrefix(err.Error(), "collective: "))
		}
	}
	if c.Size < 1 || c.Size > MaxBuffer {
		bad("collective.size", "is %v; allowed 1B..%v", c.Size, MaxBuffer)
	}
	if c.Chunks < 1 || c.Chunks > MaxChunks {
		bad("collective.chunks", "is %d; allowed 1..%d", c.Chunks, MaxChunks)
	}
	if c.Channels < 0 || c.Channels > collective.MaxChannels {
		bad("collective.channels", "is %d; allowed 0 (one per NIC) to %d", c.Channels, collective.MaxChannels)
	}
	if _, err := collective.ProtocolByName(c.Protocol); c.Protocol != "" && c.Protocol != ProtocolAuto && (err != nil || c.Protocol != strings.ToLower(c.Protocol)) {
		bad("collective.protocol", "is %q; allowed: %s, %s, or empty for the links as they are", c.Protocol, strings.Join(collective.ProtocolNames(), ", "), ProtocolAuto)
	}
}
