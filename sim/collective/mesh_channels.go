package collective

import (
	"math"

	"paraplay/sim/units"
)

// MeshChannelRing is ChannelRing on nodes whose GPUs are joined pairwise
// by direct cables (a fully connected mesh, AMD MI300X's xGMI:
// topo.Topology.DirectPorts), where a hop from GPU u to GPU v can only
// take the cable between them. ChannelRing's layout walks every channel
// through a node in the same local order, so all channels would share the
// same g−1 cables while the others idle. Here each channel crosses a node
// on cables no other channel uses, as RCCL lays its rings on different
// xGMI links (AMD's ROCm blog, Kolla, Alizadeh & Lee 2025: each MI300X
// GPU reaches its seven peers over seven links of ~48 GB/s usable each).
//
// The layout is Walecki's decomposition of the complete graph on an even
// number g = 2m of vertices into m edge-disjoint Hamiltonian paths (Lucas
// 1892, after Walecki): path i visits i, i+1, i−1, i+2, i−2, …, i+m
// (mod g). Channel c takes pattern p = c mod g: path p mod m, forward
// when ⌊p/m⌋ + k is even on node k, backward otherwise. Inside a node the
// g patterns then use every cable once in each direction, and because a
// path ends where the next node's opposite walk of it starts, the
// channel leaves node k from the GPU with the local index at which it
// enters node k+1: the inter-node hop stays on one rail, and the g
// patterns leave each node through g different NICs. Only the hop that
// closes the ring changes rail, as in ChannelRing. With g odd, one node,
// or one GPU a node, it is ChannelRing.
func MeshChannelRing(op Op, nodes, perNode int, s units.Bytes, pieces, channels int) Schedule {
	return channelRing(op, nodes, perNode, s, pieces, channels, true)
}

// meshLayout says whether MeshChannelRing has its own layout for nodes
// of perNode GPUs: several nodes of an even number of GPUs.
func meshLayout(nodes, perNode int) bool {
	return nodes > 1 && perNode >= 2 && perNode%2 == 0
}

// meshChannelOrder is channel c's ring under MeshChannelRing's layout:
// the ranks in the order it visits them.
func meshChannelOrder(nodes, perNode, c int) []int {
	g := perNode
	m := g / 2
	p := c % g
	path, dir := p%m, p/m
	order := make([]int, 0, nodes*g)
	for k := range nodes {
		backward := (dir+k)%2 == 1
		for j := range g {
			if backward {
				j = g - 1 - j
			}
			order = append(order, k*g+waleckiVertex(g, path, j))
		}
	}
	return order
}

// waleckiVertex is the j-th vertex (0 ≤ j < g) of Walecki's zig-zag path
// i on g (even) vertices: i, i+1, i−1, i+2, i−2, …, i+g/2, mod g.
func waleckiVertex(g, i, j int) int {
	if j == 0 {
		return i
	}
	k := (j + 1) / 2
	if j%2 == 0 {
		k = -k
	}
	return ((i+k)%g + g) % g
}

// MeshChannelLoads is ChannelLoads for MeshChannelRing: how many
// channels' slices the busiest cable and the busiest NIC carry per ring
// step. Every cable direction of a node carries one pattern and every GPU
// leaves the node for one, so each carries ⌈channels/g⌉ channels. Where
// MeshChannelRing falls back to ChannelRing, so does this.
func MeshChannelLoads(nodes, perNode, channels int) (intra, inter int) {
	if !meshLayout(nodes, perNode) {
		return ChannelLoads(nodes, perNode, channels)
	}
	c := max(channels, 1)
	per := (c + perNode - 1) / perNode
	return per, per
}

// MeshChannelRingTime is ChannelRingTime for MeshChannelRing: the same
// steps, each costing max(k·α_intra + L_intra·c/B_cable, k·α_inter +
// L_inter·c/B_inter) with MeshChannelLoads, every cable and NIC of a GPU a
// port of its own (the loads of different cables go at once). intraBW is
// one cable's.
func MeshChannelRingTime(op string, nodes, perNode, channels, pieces int, s units.Bytes, intraAlpha units.Time, intraBW units.Bandwidth, interAlpha units.Time, interBW units.Bandwidth) float64 {
	if !meshLayout(nodes, perNode) {
		return ChannelRingTime(op, nodes, perNode, channels, pieces, s, intraAlpha, intraBW, interAlpha, interBW)
	}
	n := nodes * perNode
	rs, ag := ringPhases(Op(op), n)
	k := float64(max(pieces, 1))
	c := max(channels, 1)
	slice := float64(s) / float64(n*c)
	li, le := MeshChannelLoads(nodes, perNode, c)
	step := math.Max(k*intraAlpha.Seconds()+float64(li)*slice/float64(intraBW), k*interAlpha.Seconds()+float64(le)*slice/float64(interBW))
	return float64(rs+ag) * step
}

// meshPortMessages is how many messages the busiest rank sends per piece
// step of MeshChannelRing: one to each distinct neighbour, on its own
// cable or through its NIC — one per pattern in use, at most g.
func meshPortMessages(nodes, perNode, channels int) int {
	if !meshLayout(nodes, perNode) {
		return channelPortMessages(nodes, perNode, channels)
	}
	return min(max(channels, 1), perNode)
}
