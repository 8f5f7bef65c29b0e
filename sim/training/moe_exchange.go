package training

import (
	"paraplay/sim/moe"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// exchange prices a mixture of experts' all-to-alls over an
// expert-parallel group: the one place that says how a layer's dispatch
// and combine cross the fabric. Both fidelities start from the same
// traffic: the per-pair messages of one all-to-all (flows), driven by the
// routing's loads. Detailed fidelity plays them on the cluster's links
// (moe_links.go: NVLink inside a node, each GPU's NIC and the switches
// across nodes, max-min sharing); analytic fidelity prices them by their
// busiest port, the closed form below, which equals the links' time on
// one switch (TestExchangeClosedFormMatchesLinks).
//
// Every message of an all-to-all is posted at once, as NCCL's grouped
// send/recv and DeepEP's kernels post them, so the exchange lasts one
// path latency plus the busiest port's bytes over its bandwidth:
//
//	α + max over GPUs and ports of (bytes through the port) / B_port
//
// (the concurrent form of the pairwise exchange's (n−1)/n·S·β, Thakur,
// Rabenseifner & Gropp 2005, whose step latencies it pays once).
//
// Flat (Megatron-LM's all-to-all token dispatcher on NCCL): GPU i sends
// each GPU j its share of j's copies, Load_j/n, over the route between
// them. Hierarchical (DeepEP's normal kernels, DeepSeek-AI, DeepSeek-V3
// Technical Report 2024, §3.2.2, and the DeepEP repository's README): a
// token crosses the network once per destination node, to the GPU of that
// node on the sender's rail, which forwards it over NVLink to the GPUs
// whose experts chose it; the node-limited router (each token to experts
// on at most M nodes) caps what the NICs carry. DeepEP forwards chunk by
// chunk as they arrive, so the RDMA and NVLink halves run at once:
// ParaPlay posts both together (ideal pipelining; the first chunk's wait
// is neglected). DeepEP V1's measured bottleneck bandwidths on H800 with
// CX7 400 Gb/s NICs (docs/legacy.md of deepseek-ai/DeepEP, confirmed with
// the search tool): 153 GB/s NVLink for EP 8 inside a node (of ~160),
// 43, 58 and 51 GB/s RDMA for EP 16, 32 and 64 (of ~50: "logical"
// bandwidth, counting tokens the node-limited routing sends once for
// several experts).
//
// The combine moves the dispatch's copies back: the transpose of its
// traffic, which on duplex links of equal bandwidth in both directions
// takes the dispatch's time at the combine's bytes. The backward pass runs
// the two again in the other roles (DeepEP: a dispatch's backward is a
// combine and a combine's a dispatch), the gradient towards the experts
// in the dispatch's precision (DeepSeek-V3 §3.3.2 quantizes "the
// activation gradient before MoE down-projections" to FP8 as well), the
// one back in BF16.
type exchange struct {
	// gpus is the group's GPU ids; fewer than two: free.
	gpus []int
	// node is each member's server.
	node []int
	// peer[i*n+j] is the member that forwards i's copies for j (the member
	// of j's node on i's rail) in a hierarchical exchange, −1 for a direct
	// message.
	peer []int
	// paths prices the route between two GPUs (α and bandwidth).
	paths *topo.Paths
	// hier is the hierarchical (DeepEP) exchange, else flat.
	hier bool
	// perCopy is the bytes of one token copy in the combine (BF16:
	// hidden × 2 bytes), dispatch in the dispatch's precision; both times
	// compression.activations.
	perCopy, dispatch float64
	// links is the cluster's topology, on which detailed fidelity plays
	// the flows (moe_links.go); nil prices them by the closed form.
	links *topo.Topology
	// trunk[i*n+j] is the links between switches that the stage's groups'
	// messages from member i to member j cross (moe_spine.go), nil when
	// none does; net is the topology they are links of.
	trunk [][]trunkUse
	net   *topo.Topology
}

// flow is one message of an all-to-all: from member src to member dst,
// copies token copies' worth of bytes (a fraction for a deduplicated
// token), over NVLink or the network as the route goes.
type flow struct {
	src, dst int
	copies   float64
}

// exchange is the iteration's: the first expert-parallel group's, free on
// an ideal network or with one GPU per group.
func (tr *iteration) exchange() *exchange {
	m := tr.model
	act := tr.s.Compression.Activations
	x := &exchange{perCopy: float64(m.Hidden) * bytesPerElement * act, hier: tr.s.Model.MoE.AllToAll == allToAllHierarchical}
	x.dispatch = x.perCopy
	if tr.s.Model.MoE.DispatchPrecision == dispatchFP8 {
		x.dispatch = fp8CopyBytes(m.Hidden) * act
	}
	if tr.fid == ideal || tr.par.EP <= 1 {
		return x
	}
	g := tr.plan.ExpertGroup(0)
	n := len(g)
	x.node, x.peer, x.paths = make([]int, n), make([]int, n*n), tr.paths
	local := make([]int, n)
	for i, a := range g {
		x.node[i], local[i] = tr.topo.GPUs[a].Node, tr.topo.GPUs[a].Local
	}
	for k := range x.peer {
		i, j := k/n, k%n
		x.peer[k] = -1
		for r := range n {
			if x.hier && x.node[j] != x.node[i] && x.node[r] == x.node[j] && local[r] == local[i] {
				x.peer[k] = r
			}
		}
	}
	x.gpus, x.trunk, x.net = g, tr.trunks(g), tr.topo
	if tr.fid == detailed {
		x.links = tr.topo
	}
	return x
}

// fp8CopyBytes is one token copy dispatched in FP8 as DeepSeek-V3 does
// (§3.3: activations quantized in 1×128 tiles, each with its own scale):
// a byte per element and a 4-byte FP32 scale per 128 elements, 0.516 of
// BF16's two bytes per element.
func fp8CopyBytes(hidden int) float64 {
	return float64(hidden) + 4*float64((hidden+127)/128)
}

// flows are the messages of one dispatch of layer l, in copies. Flat:
// Load_j/n from every other member to j. Hierarchical: a member sends the
// copies for another node to its peer there, the member on its own rail,
// deduplicated to tokens (nodes/top_k of the copies: the expected distinct
// nodes a token reaches, moe.NodesPerToken), and the peer forwards each
// member of its node its copies, as the members of the sender's own node
// get theirs, deduplicated to GPUs (gpus/top_k); a member without a peer
// on a node sends straight to its members.
func (x *exchange) flows(l moe.Layer, lay moe.Layout) []flow {
	n := len(x.gpus)
	nodeDedup, gpuDedup := 1.0, 1.0
	if x.hier && lay.TopK > 0 {
		nodeDedup = l.NodesPerToken / float64(lay.TopK)
		lay.PerNode, lay.Groups = 1, 0
		gpuDedup = moe.NodesPerToken(lay, l.Share) / float64(lay.TopK)
	}
	var out []flow
	rail := make([]float64, n)
	for i := range n {
		for j := range n {
			c, p := l.Load[j]/float64(n), x.peer[i*n+j]
			switch {
			case j == i || c <= 0:
			case p < 0:
				out = append(out, flow{src: i, dst: j, copies: c * gpuDedup})
			default:
				rail[p] += c
				if p != j {
					out = append(out, flow{src: p, dst: j, copies: c * gpuDedup})
				}
			}
		}
		for p, c := range rail {
			if c > 0 {
				out = append(out, flow{src: i, dst: p, copies: c * nodeDedup})
				rail[p] = 0
			}
		}
	}
	return out
}

// closedForm is the flows' time at bytesPer bytes a copy: the slowest
// route's latency and the busiest port's bytes over bandwidth (see
// exchange). A member's ports are its NVLink (to and from its own node)
// and its NIC (to and from others), each direction apart.
func (x *exchange) closedForm(fl []flow, bytesPer float64) units.Time {
	t := make([]float64, 4*len(x.gpus)) // member × {out, in} × {NVLink, NIC}
	var alpha, most units.Time
	for _, f := range fl {
		al, bw, err := x.paths.Cost(x.gpus[f.src], x.gpus[f.dst])
		if err != nil || bw <= 0 {
			continue
		}
		c := 0
		if x.node[f.src] != x.node[f.dst] {
			c = 2
		}
		t[4*f.src+c] += f.copies * bytesPer / float64(bw)
		t[4*f.dst+c+1] += f.copies * bytesPer / float64(bw)
		alpha = max(alpha, al)
	}
	for _, p := range t {
		most = max(most, units.Round(p))
	}
	return alpha + most
}

// time is one layer's dispatch and combine (routed as l; copies dropped by
// capacity are not sent, Load counts what the experts keep): on the
// links in detailed fidelity, by the closed form otherwise, and no
// shorter than all the stage's groups need on the spine (moe_spine.go).
func (x *exchange) time(l moe.Layer, lay moe.Layout) units.Time {
	fl := x.flows(l, lay)
	if len(fl) == 0 {
		return 0
	}
	one := x.closedForm
	if x.links != nil {
		one = x.play
	}
	return max(one(fl, x.dispatch), x.spineTime(fl, x.dispatch)) + max(one(fl, x.perCopy), x.spineTime(fl, x.perCopy))
}
