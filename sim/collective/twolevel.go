package collective

import "paraplay/sim/units"

// Link is the α and bandwidth of one kind of path, for the two-level
// closed forms.
type Link struct {
	// Alpha is the path's latency per message.
	Alpha units.Time
	// Bandwidth is the path's bandwidth per direction.
	Bandwidth units.Bandwidth
}

// TwoLevelTime is the closed-form time of op/algo (not "auto") with cfg on
// a cluster of cfg.Nodes nodes of cfg.PerNode ranks whose messages inside
// a node take the intra link and between nodes the inter link, each rank
// with a port into its node and a NIC (the model of ChannelRingTime). It
// reports false for the algorithms that have no such form here (or a
// layout that does not fit it), which are then priced on one link (Time):
//
//   - ring ops on channels: ChannelRingTime (MeshChannelRingTime when
//     cfg.Mesh);
//   - the hierarchical all-reduce: HierarchicalTime;
//   - NCCL's tree (chains in the nodes, two trees across): NCCLTreeTime;
//   - all-to-all, pairwise (AllToAllPairwiseTwoLevelTime) and through
//     the destination's rail (AllToAllPXNTime);
//   - recursive doubling on a power of two of ranks and of ranks per node:
//     its log2 n exchanges at distance d = 1, 2, …, n/2 each cost
//     α + S·β of the link the distance crosses (inside a node while
//     d < g): Σ_d (α_d + S/B_d);
//   - recursive halving-doubling likewise: the halving step at distance d
//     sends S·d/n and the doubling step back the same, so
//     2·Σ_d (α_d + (S·d/n)/B_d), which is Time's 2·log2(n)·α +
//     2(n−1)/n·S·β when the links are equal.
//
// Thakur, Rabenseifner & Gropp (2005) give the one-link forms; the split
// by distance follows from rank r's partner r XOR d sharing its node
// exactly when d < g (ranks node-major, g a power of two).
func TwoLevelTime(op, algo string, cfg Config, intra, inter Link) (float64, bool) {
	nodes, per := cfg.Nodes, cfg.PerNode
	if nodes < 2 || per < 1 || cfg.ranks() != nodes*per {
		return 0, false
	}
	n := nodes * per
	ring := algo == "ring" && (op == "all_reduce" || op == "reduce_scatter" || op == "all_gather")
	pow2 := n&(n-1) == 0 && per&(per-1) == 0
	S := float64(cfg.Bytes)
	at := func(d int, bytes float64) float64 {
		l := inter
		if d < per {
			l = intra
		}
		return l.Alpha.Seconds() + bytes/float64(l.Bandwidth)
	}
	switch {
	case ring && cfg.channels() > 1 && per > 1:
		return cfg.channelRingTime(op, nodes, per, cfg.chunks(), intra, inter), true
	case op == "all_reduce" && algo == "tree" && per > 1:
		return NCCLTreeTime(nodes, per, cfg.channels(), cfg.chunks(), cfg.Bytes, intra, inter), true
	case op == "all_to_all" && algo == "pxn" && per > 1:
		return AllToAllPXNTime(nodes, per, cfg.Bytes, intra, inter), true
	case op == "all_to_all" && algo == "pairwise" && per > 1:
		return AllToAllPairwiseTwoLevelTime(nodes, per, cfg.Bytes, intra, inter), true
	case op == "all_reduce" && algo == "hierarchical":
		return HierarchicalTime(nodes, per, cfg.Bytes, intra.Alpha, intra.Bandwidth, inter.Alpha, inter.Bandwidth), true
	case op == "all_reduce" && algo == "recursive_doubling" && pow2:
		t := 0.0
		for d := 1; d < n; d *= 2 {
			t += at(d, S)
		}
		return t, true
	case op == "all_reduce" && algo == "halving_doubling" && pow2:
		t := 0.0
		for d := 1; d < n; d *= 2 {
			t += 2 * at(d, S*float64(d)/float64(n))
		}
		return t, true
	}
	return 0, false
}
