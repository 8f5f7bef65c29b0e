package collective

import (
	"math/bits"
)

// Messages is an upper bound on the transfers of the schedule New builds
// for op and algo with cfg, from closed forms (no schedule is built: the
// work budget asks it of collectives too large to build). With n ranks, k
// chunks (cfg.Chunks, 0 read as 1), L = ⌈log2 n⌉:
//
//	all_reduce/ring                 2(n−1)·n·k·m    (2(n−1) steps of n messages, each cut in k; m = 2 with channels across nodes, ChannelRing)
//	all_reduce/tree                 4(n−1)·k        (two trees of n−1 edges, up and down, k pieces each)
//	                                C·k·(2(g−1)N + 4(N−1))  across N nodes of g (NCCLTree, C channels)
//	all_reduce/halving_doubling     2n·L
//	all_reduce/recursive_doubling   p·log2 p + 2(n−p)  (p the largest power of two ≤ n: MPICH's fold)
//	all_reduce/hierarchical         2n·(g + N − 2)  (g ranks a node, N nodes: two intra-node rings, one per rail)
//	all_reduce/ps                   2·workers·servers
//	all_reduce/direct               2n(n−1)
//	reduce_scatter/ring, all_gather/ring   n(n−1)·m
//	all_to_all/pairwise, pxn        n(n−1)     (pxn: M(g−1) NVLink and M−1 NIC messages a rank)
//	reduce_scatter/direct, all_gather/direct   n(n−1)
//	broadcast/binomial, reduce/binomial   n−1
//	broadcast/chain                 (n−1)·k
//	sendrecv/direct                 1
//	barrier/dissemination           n·L
//
// "auto" is resolved as New resolves it (cfg.Alpha and cfg.Bandwidth, or
// their defaults); an algorithm that does not fit is bounded by the
// largest of its op's. The collective tests compare each with the
// schedules' lengths.
func Messages(op, algo string, cfg Config) float64 {
	n, k := float64(cfg.ranks()), float64(cfg.chunks())
	if n < 2 {
		return 0
	}
	l := float64(bits.Len(uint(cfg.ranks() - 1)))
	algo = resolveForBound(op, algo, cfg)
	switch op + "/" + algo {
	case "all_reduce/ring":
		return 2 * (n - 1) * n * k * float64(channelMessages(cfg))
	case "all_reduce/tree":
		if N, g := float64(cfg.Nodes), float64(cfg.PerNode); cfg.Nodes > 1 && cfg.PerNode > 1 {
			c := float64(TreeChannels(cfg.PerNode, cfg.channels()))
			return c * k * (2*(g-1)*N + 4*(N-1)) // NCCLTree: chains up and down, two trees of N−1 edges
		}
		return 4 * (n - 1) * k
	case "all_reduce/halving_doubling":
		return 2 * n * l
	case "all_reduce/direct":
		return 2 * n * (n - 1)
	case "reduce_scatter/direct", "all_gather/direct":
		return n * (n - 1)
	case "all_reduce/recursive_doubling":
		p := float64(uint(1) << (bits.Len(uint(cfg.ranks())) - 1))
		return p*float64(bits.Len(uint(p))-1) + 2*(n-p)
	case "all_reduce/hierarchical":
		nodes, per := cfg.twoLevel()
		return 2 * n * float64(per+nodes-2)
	case "all_reduce/ps":
		s := float64(cfg.servers())
		return 2 * (n - s) * s
	case "reduce_scatter/ring", "all_gather/ring":
		return n * (n - 1) * float64(channelMessages(cfg))
	case "all_to_all/pairwise", "all_to_all/pxn":
		return n * (n - 1)
	case "broadcast/binomial", "reduce/binomial":
		return n - 1
	case "broadcast/chain":
		return (n - 1) * k
	case "sendrecv/direct":
		return 1
	case "barrier/dissemination":
		return n * l
	}
	most := 0.0
	for _, a := range Algorithms(op) {
		if a != "auto" && a != algo {
			most = max(most, Messages(op, a, cfg))
		}
	}
	return most
}

// resolveForBound is algo with "auto" resolved as New resolves it
// (cfg.Alpha and cfg.Bandwidth, or their defaults).
func resolveForBound(op, algo string, cfg Config) string {
	if algo != "auto" {
		return algo
	}
	alpha, bw := cfg.Alpha, cfg.Bandwidth
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	if bw == 0 {
		bw = DefaultBandwidth
	}
	if a, err := Resolve(op, algo, cfg, alpha, bw); err == nil {
		return a
	}
	return algo
}

// BuildBytes bounds what building the schedule of op and algo with cfg
// allocates besides its transfers: the builder's table of who last wrote
// each chunk on each rank, a slice header per rank and chunk (24 bytes),
// and the writers it notes, about two per rank and chunk (a reduced copy,
// then the final one), in slices grown by doubling (16 bytes each): 64
// bytes per rank and chunk, with C chunks
//
//	all_reduce/halving_doubling, all_reduce/hierarchical,
//	reduce_scatter/ring, all_gather/ring (one rank's)   C = n
//	all_reduce/tree                  C = 2k, or 2k·channels across nodes (NCCLTree)
//	all_reduce/ps                    C = servers
//	broadcast/chain                  C = k
//	others                           C = 1 (or no builder)
//
// A 512-GPU halving-doubling all-reduce cuts its buffer in 512 chunks:
// its table, 17 MB, outweighs its 9,216 messages (measured: 23.3 MB in
// all, of which about 4 MB per message costs). An algorithm that does
// not fit is bounded as one of C = n.
func BuildBytes(op, algo string, cfg Config) float64 {
	n, k := float64(cfg.ranks()), float64(cfg.chunks())
	if n < 2 {
		return 0
	}
	algo = resolveForBound(op, algo, cfg)
	c := 1.0
	switch op + "/" + algo {
	case "all_reduce/halving_doubling", "all_reduce/hierarchical", "reduce_scatter/ring", "all_gather/ring":
		c = n
	case "all_reduce/tree":
		c = 2 * k
		if cfg.Nodes > 1 && cfg.PerNode > 1 {
			c *= float64(TreeChannels(cfg.PerNode, cfg.channels()))
		}
	case "all_reduce/ps":
		c = float64(cfg.servers())
	case "broadcast/chain":
		c = k
	default:
		c = n // an algorithm that does not fit: the most any cuts the buffer in
		for _, a := range Algorithms(op) {
			if a == algo {
				c = 1
			}
		}
	}
	return 64 * n * c
}
