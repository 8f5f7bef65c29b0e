package collective

import (
	"sort"

	"paraplay/sim/units"
)

// NCCLTree is NCCL's TREE all-reduce across nodes (NCCL 2.4; NVIDIA's
// "Massively Scale Your Deep Learning Training with NCCL 2.4", 2019;
// src/graph/trees.cc and connect.cc): inside every node the GPUs form a
// chain, and across nodes the chains' heads form the two complementary
// binary trees of Sanders, Speck & Träff (2009) (Trees over the nodes).
// Ranks are nodes × perNode, rank r on node r / perNode.
//
// The buffer is cut into channels slices (NCCL's nChannels, at most
// perNode here: more would share a GPU's NIC and gain nothing). Channel c's
// head in every node is local GPU c, so each channel leaves the node
// through its own NIC, and its chain visits the node's GPUs c, c+1, …
// (mod perNode). Each slice is cut into pieces (pipelining), and each piece
// into two halves, half h going over tree h — NCCL doubles its tree
// channels so that every NIC carries both trees, which is what gives the
// double binary tree a ring's bandwidth.
//
// A piece is summed up the chain to the head (the tail sends first), up
// tree h to its root, copied back down tree h, and down the chain. Step
// numbers (for drawing; After orders execution): chain position i sends
// piece p up at step p + (g−1−i); the head of a node at height t in tree h
// sends up at p + (g−1) + t; a node at depth d sends down at
// p + (g−1) + H + d (H the root's height); chain position i sends down at
// p + (g−1) + H + max(d₀, d₁) + i, once both halves are back. One node or
// one GPU per node is DoubleBinaryTree over the ranks. See NCCLTreeTime
// for the cost.
func NCCLTree(nodes, perNode int, s units.Bytes, pieces, channels int) Schedule {
	n := nodes * perNode
	if nodes < 2 || perNode < 2 {
		return DoubleBinaryTree(n, s, pieces)
	}
	sch := Schedule{Op: OpAllReduce, Algorithm: "tree", Ranks: n, Bytes: s}
	c := TreeChannels(perNode, channels)
	if c > 1 {
		sch.Channels = c
	}
	if s <= 0 {
		return sch
	}
	k := max(pieces, 1)
	// Grid: chunk (ch·k + p)·2 + h is half h of piece p of channel ch.
	var sizes []units.Bytes
	for ch := range c {
		for _, piece := range evenChunks(ChunkBytes(s, c, ch), k) {
			sizes = append(sizes, evenChunks(piece, 2)...)
		}
	}
	sends := ncclTreeSends(nodes, perNode, k, c)
	sort.SliceStable(sends, func(i, j int) bool { return sends[i].step < sends[j].step })
	b := newBuilder(&sch, sizes)
	for _, x := range sends {
		phase := PhaseBroadcast
		if x.up {
			phase = PhaseReduce
		}
		if i := b.send(x.step, x.src, x.dst, x.lo, x.hi, phase, x.up); i >= 0 {
			sch.Transfers[i].Channel = int8(x.lo / (2 * k)) // grid chunk (ch·k + p)·2 + h
		}
	}
	return sch
}

// TreeChannels is the number of channels NCCLTree runs: the requested
// count (0 means 1), at most one per GPU of a node.
func TreeChannels(perNode, channels int) int {
	return max(1, min(channels, perNode))
}

// treeSend is one message of NCCLTree before the builder numbers it:
// grid chunks [lo, hi), summed on arrival when up.
type treeSend struct {
	step, src, dst, lo, hi int
	up                     bool
}

// ncclTreeSends lists NCCLTree's messages with their steps (see NCCLTree).
func ncclTreeSends(nodes, g, k, c int) []treeSend {
	trees := Trees(nodes)
	var height, depth [2][]int
	for h, tr := range trees {
		height[h], depth[h] = tr.heights(), tr.depths()
	}
	H := height[0][trees[0].Root]
	rank := func(node, local int) int { return node*g + local%g }
	var out []treeSend
	for ch := range c {
		for p := range k {
			both := (ch*k + p) * 2 // the piece's two halves
			for v := range nodes {
				for i := g - 1; i >= 1; i-- { // chain up, tail first
					out = append(out, treeSend{p + g - 1 - i, rank(v, ch+i), rank(v, ch+i-1), both, both + 2, true})
				}
				for h, tr := range trees {
					if up := tr.Parent[v]; up >= 0 {
						out = append(out, treeSend{p + g - 1 + height[h][v], rank(v, ch), rank(up, ch), both + h, both + h + 1, true})
					}
					for _, kid := range tr.Children[v] {
						out = append(out, treeSend{p + g - 1 + H + depth[h][v], rank(v, ch), rank(kid, ch), both + h, both + h + 1, false})
					}
				}
				last := p + g - 1 + H + max(depth[0][v], depth[1][v])
				for i := 0; i < g-1; i++ { // chain down, head first
					out = append(out, treeSend{last + i, rank(v, ch+i), rank(v, ch+i+1), both, both + 2, false})
				}
			}
		}
	}
	return out
}

// NCCLTreeTime is the closed-form time of NCCLTree on separate intra-node
// (α_i, B_i) and inter-node (α_e, B_e) links, every GPU with a port into
// its node and a NIC (the model of ChannelRingTime), g = perNode, N =
// nodes, C = TreeChannels(g, channels), k pieces.
//
// With k = 1 the phases follow each other. The chain up moves a slice
// c = S/C per hop; at each of its g−1 steps channel ch's sender is GPU
// ch+g−1−step of the node, a different GPU for every channel, so every
// port carries one message per step: (g−1)·(α_i + c/B_i). The heads then
// run DoubleBinaryTree over the N nodes on their NICs, GPU ch's NIC for
// channel ch alone, all at once: DoubleBinaryTreeTime(N, c). The chain
// down is the chain up reversed:
//
//	2(g−1)·(α_i + S/(C·B_i)) + (4⌈log₂N⌉−2)·(α_e + S/(2C·B_e))   (N > 2)
//
// exact when N is a power of two (DoubleBinaryTreeTime), γ not charged.
// With k > 1 it is a pipeline estimate: the first piece's path, 2(g−1)
// hops of x_i = α_i + S/(C·k·B_i) and 4⌈log₂N⌉−2 of x_e = α_e +
// S/(2C·k·B_e), plus k−1 periods of the busiest port, max(P_i·x_i,
// P_e·x_e), P_i the most chain messages one GPU sends per piece
// (treeChainLoad) and P_e = 4 (2 when N = 2) as in DoubleBinaryTreeTime.
func NCCLTreeTime(nodes, perNode, channels, pieces int, s units.Bytes, intra, inter Link) float64 {
	if nodes < 2 || perNode < 2 {
		l := inter
		if nodes < 2 {
			l = intra
		}
		return DoubleBinaryTreeTime(nodes*perNode, s, pieces, l.Alpha, l.Bandwidth)
	}
	c := float64(TreeChannels(perNode, channels))
	k := max(pieces, 1)
	kf, gm := float64(k), float64(perNode-1)
	xi := intra.Alpha.Seconds() + float64(s)/(c*kf)/float64(intra.Bandwidth)
	xe := inter.Alpha.Seconds() + float64(s)/(2*c*kf)/float64(inter.Bandwidth)
	first := 2*gm*xi + float64(4*ceilLog2(nodes)-2)*xe
	if k == 1 {
		return first
	}
	pe := 4.0
	if nodes == 2 {
		pe = 2
	}
	pi := float64(treeChainLoad(perNode, TreeChannels(perNode, channels)))
	return first + (kf-1)*max(pi*xi, pe*xe)
}

// treeChainLoad is the most chain messages one GPU sends per piece over
// NVLink in NCCLTree: one up for every channel it does not head and one
// down for every channel whose tail it is not.
func treeChainLoad(g, c int) int {
	most := 0
	for j := range g {
		n := 0
		for ch := range c {
			if j != ch%g {
				n++ // not the head: sends up
			}
			if j != (ch+g-1)%g {
				n++ // not the tail: sends down
			}
		}
		most = max(most, n)
	}
	return most
}
