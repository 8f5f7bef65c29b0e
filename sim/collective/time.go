package collective

import (
	"fmt"
	"math"

	"paraplay/sim/units"
)

// Time is the closed-form α–β time, in seconds, of the schedule New(op,
// algo, cfg) builds, on links of per-message latency alpha and bandwidth bw
// per direction (β = 1/bw) — the analytic fidelity runs on it. The formulas
// are those of Thakur, Rabenseifner & Gropp (2005) and Patarasuk & Yuan
// (2009); each constructor's comment
// gives its own, and where the literature gives only an estimate (tree,
// chain, hierarchical, parameter server) the comment derives the time of
// ParaPlay's schedule on the execution model of the tests: every rank on an
// ideal switch with one full-duplex port, one message at a time per
// direction, α + bytes·β per message. S/n is taken as a real number, so a
// schedule with uneven chunks may differ by a byte's time per step.
//
// A tree across several nodes of several ranks is NCCLTree, priced by
// NCCLTreeTime on the same two ports per rank.
//
// A ring with Channels > 1 is ChannelRing, priced by ChannelRingTime with
// both links at alpha and bw: its execution model gives every rank two
// such ports, one into its node (Nodes, PerNode) and one NIC, as a GPU
// has an NVLink port and a network card.
//
// The γ term (time to add received data) is not charged: ParaPlay does not
// model reduction arithmetic yet, so γ = 0 throughout.
func Time(op, algo string, cfg Config, alpha units.Time, bw units.Bandwidth) (float64, error) {
	if err := cfg.Validate(); err != nil {
		return 0, err
	}
	if bw <= 0 || alpha < 0 {
		return 0, fmt.Errorf("collective: time needs alpha ≥ 0 and bandwidth > 0, got %v and %v", alpha, bw)
	}
	algo, err := Resolve(op, algo, cfg, alpha, bw)
	if err != nil {
		return 0, err
	}
	n, k := cfg.ranks(), cfg.chunks()
	if n < 2 && op != "sendrecv" {
		return 0, nil
	}
	a, S, nf := alpha.Seconds(), float64(cfg.Bytes), float64(n)
	beta := 1 / float64(bw)
	msg := func(bytes float64) float64 { return a + bytes*beta }
	switch op + "/" + algo {
	case "all_reduce/ring":
		if cfg.channels() > 1 {
			nodes, per := cfg.twoLevel()
			return cfg.channelRingTime(op, nodes, per, k, Link{alpha, bw}, Link{alpha, bw}), nil
		}
		return 2*(nf-1)*float64(k)*a + 2*(nf-1)/nf*S*beta, nil
	case "all_reduce/tree":
		nodes, per := cfg.twoLevel()
		return NCCLTreeTime(nodes, per, cfg.channels(), k, cfg.Bytes, Link{alpha, bw}, Link{alpha, bw}), nil
	case "all_reduce/halving_doubling":
		return 2*math.Log2(nf)*a + 2*(nf-1)/nf*S*beta, nil
	case "all_reduce/recursive_doubling":
		return float64(recursiveDoublingSteps(n)) * msg(S), nil
	case "all_reduce/hierarchical":
		nodes, per := cfg.twoLevel()
		return HierarchicalTime(nodes, per, cfg.Bytes, alpha, bw, alpha, bw), nil
	case "all_reduce/direct":
		return 2 * (nf - 1) * msg(S/nf), nil
	case "reduce_scatter/direct", "all_gather/direct":
		return (nf - 1) * msg(S/nf), nil
	case "all_reduce/ps":
		m := cfg.servers()
		return 2 * float64(n-m) * msg(S/float64(m)), nil
	case "reduce_scatter/ring", "all_gather/ring":
		if cfg.channels() > 1 {
			nodes, per := cfg.twoLevel()
			return cfg.channelRingTime(op, nodes, per, 1, Link{alpha, bw}, Link{alpha, bw}), nil
		}
		return (nf-1)*a + (nf-1)/nf*S*beta, nil
	case "all_to_all/pairwise":
		return (nf-1)*a + (nf-1)/nf*S*beta, nil
	case "all_to_all/pxn":
		// One port: all M(g−1) NVLink messages, then the M−1 through the
		// NIC (AllToAllPXN).
		nodes, per := cfg.twoLevel()
		M, g := float64(nodes), float64(per)
		return M*(g-1)*msg(S/nf) + (M-1)*msg(g*S/nf), nil
	case "broadcast/binomial", "reduce/binomial":
		return float64(ceilLog2(n)) * msg(S), nil
	case "broadcast/chain":
		return float64(n+k-2) * msg(S/float64(k)), nil
	case "sendrecv/direct":
		return msg(S), nil
	case "barrier/dissemination":
		return float64(ceilLog2(n)) * msg(float64(BarrierBytes)), nil
	}
	panic("collective: Time: " + op + "/" + algo + " is listed but has no formula")
}

// channelMessages is how many messages the busiest rank sends per ring
// step of the ring cfg describes: with several channels across nodes, one
// to its NVLink neighbour and one through its NIC (the work bound counts
// them).
func channelMessages(cfg Config) int {
	nodes, per := cfg.twoLevel()
	if cfg.Mesh {
		return meshPortMessages(nodes, per, cfg.channels())
	}
	return channelPortMessages(nodes, per, cfg.channels())
}

// channelRingTime is ChannelRingTime, or MeshChannelRingTime on a mesh,
// of cfg's ring on nodes × per ranks with k pieces.
func (cfg Config) channelRingTime(op string, nodes, per, k int, intra, inter Link) float64 {
	if cfg.Mesh {
		return MeshChannelRingTime(op, nodes, per, cfg.channels(), k, cfg.Bytes, intra.Alpha, intra.Bandwidth, inter.Alpha, inter.Bandwidth)
	}
	return ChannelRingTime(op, nodes, per, cfg.channels(), k, cfg.Bytes, intra.Alpha, intra.Bandwidth, inter.Alpha, inter.Bandwidth)
}

// FormulaText is the closed form Time uses for op/algo, in plain-text
// notation (n ranks, S bytes, α, bandwidth B, k chunks when chunks > 1),
// for captions that print the formula beside the simulated time. An
// op/algo without a one-line form (hierarchical, ps, sendrecv, barrier)
// gives the algorithm's name in parentheses. The tree's form is that of
// n > 2 ranks (DoubleBinaryTreeTime).
func FormulaText(op, algo string, chunks int) string {
	k := ""
	if chunks > 1 {
		k = "k"
	}
	switch op + "/" + algo {
	case "all_reduce/ring":
		return "2(n−1)" + k + "α + 2(n−1)/n·S/B"
	case "all_reduce/tree":
		if chunks > 1 {
			return "(4⌈log₂n⌉−2+4(k−1))·(α + S/(2kB))"
		}
		return "(4⌈log₂n⌉−2)·(α + S/(2B))"
	case "all_reduce/halving_doubling":
		return "2·log₂n·α + 2(n−1)/n·S/B"
	case "all_reduce/recursive_doubling":
		return "⌈log₂n⌉·(α + S/B)"
	case "reduce_scatter/ring", "all_gather/ring", "all_to_all/pairwise":
		return "(n−1)α + (n−1)/n·S/B"
	case "broadcast/binomial", "reduce/binomial":
		return "⌈log₂n⌉·(α + S/B)"
	case "broadcast/chain":
		return "(n+k−2)·(α + S/(kB))"
	case "all_to_all/pxn":
		return "M(g−1)·(α + S/(nB)) + (M−1)·(α + g·S/(nB))"
	}
	return "(" + Label(algo) + ")"
}

// DoubleBinaryTreeTime is the α–β time of DoubleBinaryTree(n, s, chunks) on
// the execution model of Time. Each message carries a piece of
// c = S/(2·chunks) bytes and costs α + c·β. One piece alone: going up, a
// parent takes its two children's pieces one after the other through its
// one incoming port (2 messages per level, 1 into the root, whose only
// child is the top of the tree); coming down, it sends to its two children
// one after the other (again 2 per level, 1 from the root). With H =
// ⌈log2 n⌉ levels the first piece is back at the last leaf after
//
//	M₁ = 2(H−1) + 1 + 1 + 2(H−1) = 4H − 2   messages.
//
// Every further piece adds P messages: every port of a rank that is inside
// one tree and a leaf of the other carries 4 messages per piece (in: two
// children and two parents; out: two children and two parents), P = 4; on
// n = 2 each rank sends only its piece up one tree and down the other,
// P = 2. So
//
//	(4H − 2 + P·(chunks − 1)) · (α + S/(2·chunks)·β)   (γ not charged)
//
// is exact for chunks = 1 when n is a power of two and for n = 2; with
// other n some leaves are nearer the root, and the time is at most this.
// With chunks > 1 it is the conflict-free pipeline's time: the port model's
// first-come-first-served order can interleave the two trees' pieces less
// well and run longer (the literature gives only ≈ 2·log2(n)·α + S·β per half).
func DoubleBinaryTreeTime(n int, s units.Bytes, chunks int, alpha units.Time, bw units.Bandwidth) float64 {
	if n < 2 {
		return 0
	}
	k := max(chunks, 1)
	p := 4
	if n == 2 {
		p = 2
	}
	m := 4*ceilLog2(n) - 2 + p*(k-1)
	return float64(m) * (alpha.Seconds() + float64(s)/float64(2*k)/float64(bw))
}

// BusBWFactor is the factor nccl-tests multiplies algorithm bandwidth
// (S / t) by to report bus bandwidth, which is comparable across rank
// counts (NVIDIA/nccl-tests, doc/PERFORMANCE.md): 2(n−1)/n for all_reduce;
// (n−1)/n for reduce_scatter, all_gather and all_to_all; 1 for broadcast,
// reduce and sendrecv. Unknown ops and barrier (which moves no payload)
// give 0.
func BusBWFactor(op string, n int) float64 {
	nf := float64(n)
	switch op {
	case "all_reduce":
		return 2 * (nf - 1) / nf
	case "reduce_scatter", "all_gather", "all_to_all":
		return (nf - 1) / nf
	case "broadcast", "reduce", "sendrecv":
		return 1
	}
	return 0
}
