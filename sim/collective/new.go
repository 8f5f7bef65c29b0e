package collective

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"paraplay/sim/units"
)

// Ops lists the operations New and Time accept, named as nccl-tests names
// its binaries, with the algorithms each supports ("auto" for every one).
var opAlgorithms = []struct {
	op    string
	algos []string
}{
	{"all_reduce", []string{"ring", "tree", "halving_doubling", "recursive_doubling", "hierarchical", "ps", "direct"}},
	{"reduce_scatter", []string{"ring", "direct"}},
	{"all_gather", []string{"ring", "direct"}},
	{"broadcast", []string{"binomial", "chain"}},
	{"reduce", []string{"binomial"}},
	{"all_to_all", []string{"pairwise", "pxn"}},
	{"sendrecv", []string{"direct"}},
	{"barrier", []string{"dissemination"}},
}

// Ops returns the operation names New accepts, in a fixed order.
func Ops() []string {
	var ops []string
	for _, o := range opAlgorithms {
		ops = append(ops, o.op)
	}
	return ops
}

// Algorithms returns the algorithms New accepts for op, "auto" first, or nil
// for an unknown op.
func Algorithms(op string) []string {
	for _, o := range opAlgorithms {
		if o.op == op {
			return append([]string{"auto"}, o.algos...)
		}
	}
	return nil
}

// New builds the schedule of op done by algo, for the command line and
// scenarios. op is one of Ops (all_reduce, reduce_scatter, all_gather,
// broadcast, reduce, all_to_all, sendrecv, barrier); algo one of
// Algorithms(op). "auto" picks as Resolve does, with cfg.Alpha and
// cfg.Bandwidth (or their defaults) as the link. An unknown name, a
// combination that does not exist or a Config that does not fit the
// algorithm is an error that names the allowed values.
func New(op, algo string, cfg Config) (Schedule, error) {
	if err := cfg.Validate(); err != nil {
		return Schedule{}, err
	}
	if n := cfg.ranks(); n > MaxRanks {
		return Schedule{}, fmt.Errorf("collective: %d ranks is more than the %d New builds schedules for; use Time for larger runs", n, MaxRanks)
	}
	alpha, bw := cfg.Alpha, cfg.Bandwidth
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	if bw == 0 {
		bw = DefaultBandwidth
	}
	algo, err := Resolve(op, algo, cfg, alpha, bw)
	if err != nil {
		return Schedule{}, err
	}
	n, s, k := cfg.ranks(), cfg.Bytes, cfg.chunks()
	switch op + "/" + algo {
	case "all_reduce/ring":
		if nodes, per := cfg.twoLevel(); cfg.channels() > 1 {
			return channelRing(OpAllReduce, nodes, per, s, k, cfg.channels(), cfg.Mesh), nil
		}
		return RingPipelined(n, s, k), nil
	case "all_reduce/tree":
		nodes, per := cfg.twoLevel()
		return NCCLTree(nodes, per, s, k, cfg.channels()), nil
	case "all_reduce/halving_doubling":
		return RecursiveHalvingDoubling(n, s)
	case "all_reduce/recursive_doubling":
		return RecursiveDoubling(n, s), nil
	case "all_reduce/hierarchical":
		nodes, per := cfg.twoLevel()
		return Hierarchical(nodes, per, s)
	case "all_reduce/ps":
		return ParameterServer(n-cfg.servers(), cfg.servers(), s)
	case "all_reduce/direct", "reduce_scatter/direct", "all_gather/direct":
		return Direct(Op(op), n, s), nil
	case "reduce_scatter/ring", "all_gather/ring":
		nodes, per := cfg.twoLevel()
		return channelRing(Op(op), nodes, per, s, 1, cfg.channels(), cfg.Mesh), nil
	case "broadcast/binomial":
		return BroadcastBinomial(n, s, cfg.Root), nil
	case "broadcast/chain":
		return BroadcastChain(n, s, cfg.Root, k), nil
	case "reduce/binomial":
		return ReduceBinomial(n, s, cfg.Root), nil
	case "all_to_all/pairwise":
		return AllToAllPairwise(n, s), nil
	case "all_to_all/pxn":
		nodes, per := cfg.twoLevel()
		return AllToAllPXN(nodes, per, s), nil
	case "sendrecv/direct":
		return SendRecv(s), nil
	case "barrier/dissemination":
		return Barrier(n), nil
	}
	panic("collective: New: " + op + "/" + algo + " is listed but not built")
}

// Resolve checks that op and algo exist and fit cfg, and turns "auto" into
// an algorithm the way NCCL does in spirit — latency-bound algorithms for
// small buffers, bandwidth-bound ones for large — by taking the candidate
// whose closed form (Time) on a link of latency alpha and bandwidth bw is
// smallest, ties to the first listed:
//
//   - all_reduce: ring, then tree. Their times are both linear in S, so
//     this is a threshold: tree below Crossover, ring from it on.
//   - broadcast: binomial, then chain.
//   - every other op: its only algorithm.
func Resolve(op, algo string, cfg Config, alpha units.Time, bw units.Bandwidth) (string, error) {
	algos := Algorithms(op)
	if algos == nil {
		return "", fmt.Errorf("collective: unknown operation %q; want one of %s", op, strings.Join(Ops(), ", "))
	}
	if !slices.Contains(algos, algo) {
		return "", fmt.Errorf("collective: %s has no algorithm %q; want one of %s", op, algo, strings.Join(algos, ", "))
	}
	n := cfg.ranks()
	if algo == "auto" {
		best, bestT, firstErr := "", 0.0, error(nil)
		for _, a := range autoCandidates(op) {
			t, err := Time(op, a, cfg, alpha, bw)
			if err == nil && (best == "" || t < bestT) {
				best, bestT = a, t
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		if best == "" {
			return "", firstErr
		}
		return best, nil
	}
	switch {
	case algo == "halving_doubling" && n&(n-1) != 0:
		return "", fmt.Errorf("collective: halving_doubling needs a power-of-two number of ranks, got %d", n)
	case algo == "hierarchical" && (cfg.Nodes < 1 || cfg.PerNode < 1):
		return "", fmt.Errorf("collective: hierarchical needs nodes and per-node ranks, got %d×%d", cfg.Nodes, cfg.PerNode)
	case algo == "pxn" && (cfg.Nodes < 2 || cfg.PerNode < 2):
		return "", fmt.Errorf("collective: pxn forwards through a peer of the sender's node; it needs at least 2 nodes of at least 2 ranks, got %d×%d", cfg.Nodes, cfg.PerNode)
	case algo == "ps" && n-cfg.servers() < cfg.servers():
		return "", fmt.Errorf("collective: ps needs at least as many workers as servers, got %d servers among %d ranks", cfg.servers(), n)
	case op == "sendrecv" && n != 2:
		return "", fmt.Errorf("collective: sendrecv runs on 2 ranks, got %d", n)
	}
	return algo, nil
}

// autoCandidates lists the algorithms "auto" chooses among, in order of
// preference on a tie.
func autoCandidates(op string) []string {
	switch op {
	case "all_reduce":
		return []string{"ring", "tree"}
	case "broadcast":
		return []string{"binomial", "chain"}
	}
	return Algorithms(op)[1:2]
}

// Crossover is the all-reduce size from which "auto" prefers ring to tree
// on n ranks with chunks pieces (0 for 1) and the given link: the S where
// the two closed forms are equal (Time with the same cfg). Writing each as a + b·S (DoubleBinaryTreeTime
// with M messages on its critical path: a = M·α, b = M/(2·chunks)·β; Ring:
// a = 2(n−1)·chunks·α, b = 2(n−1)/n·β),
//
//	S* = (a_ring − a_tree) / (b_tree − b_ring)
//
// rounded up, so that auto picks tree exactly when S < Crossover; 0 when
// the tree's latency term is not smaller (small n), when the ring
// wins at every size.
func Crossover(n, chunks int, alpha units.Time, bw units.Bandwidth) units.Bytes {
	cfg := Config{Ranks: n, Chunks: chunks}
	at := func(algo string, s units.Bytes) float64 {
		cfg.Bytes = s
		t, _ := Time("all_reduce", algo, cfg, alpha, bw)
		return t
	}
	const probe = units.GiB
	aTree, aRing := at("tree", 0), at("ring", 0)
	bTree, bRing := (at("tree", probe)-aTree)/float64(probe), (at("ring", probe)-aRing)/float64(probe)
	if aTree >= aRing || bTree <= bRing {
		return 0
	}
	return units.Bytes(math.Ceil((aRing - aTree) / (bTree - bRing)))
}
