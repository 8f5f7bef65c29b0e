package collective

import (
	"fmt"
	"math"
	"testing"

	"paraplay/sim/units"
)

// timingCase is one algorithm of the timing grid with its formula written
// out again from the α–β papers (Thakur, Rabenseifner & Gropp 2005) or
// from the derivation in the constructor's comment, independently of Time.
type timingCase struct {
	op, algo string
	ranks    []int
	cfg      func(n int) Config
	// want is the formula in seconds, with S in bytes, a = α in seconds and
	// b = β in seconds per byte.
	want func(n int, S, a, b float64) float64
}

// channels is n ranks on n/4 nodes (at least 2) running c rings.
func channels(c int) func(n int) Config {
	return func(n int) Config {
		nodes := max(2, n/4)
		return Config{Ranks: n, Nodes: nodes, PerNode: n / nodes, Channels: c}
	}
}

// channelStep is one ring step of c channels on the ranks of channels(c):
// the busiest rank sends to its node neighbour the slices (S/(n·c) each)
// of the c − ⌊c/g⌋ channels it does not take out of the node, and through
// its NIC those of the ⌈c/g⌉ it does, at once.
func channelStep(n, c int, S, a, b float64) float64 {
	g := float64(n / max(2, n/4))
	cf := float64(c)
	intra, inter := cf-math.Floor(cf/g), math.Ceil(cf/g)
	return a + math.Max(intra, inter)*S/(cf*float64(n))*b
}

// ncclTree is NCCLTree's time on the ranks of channels(c), written out
// from the phases: the chain up and down, 2(g−1) hops of a channel's
// slice S/c each, and the double binary tree over the N nodes, 4·log2 N − 2
// messages of half a slice (2 when N = 2).
func ncclTree(c int) func(n int, S, a, b float64) float64 {
	return func(n int, S, a, b float64) float64 {
		N := max(2, n/4)
		g := float64(n / N)
		msgs := 4*math.Log2(float64(N)) - 2
		return 2*(g-1)*(a+S/float64(c)*b) + msgs*(a+S/float64(2*c)*b)
	}
}

func timingCases() []timingCase {
	pow2 := []int{2, 4, 8, 16}
	any := []int{2, 3, 4, 6, 8, 16}
	plain := func(n int) Config { return Config{Ranks: n} }
	lg := func(n int) float64 { return math.Ceil(math.Log2(float64(n))) }
	return []timingCase{
		{"all_reduce", "ring", any, plain, func(n int, S, a, b float64) float64 {
			return 2*float64(n-1)*a + 2*float64(n-1)/float64(n)*S*b
		}},
		{"all_reduce", "ring", pow2, func(n int) Config { return Config{Ranks: n, Chunks: 4} }, func(n int, S, a, b float64) float64 {
			return 2*float64(n-1)*4*a + 2*float64(n-1)/float64(n)*S*b
		}},
		{"all_reduce", "halving_doubling", pow2, plain, func(n int, S, a, b float64) float64 {
			return 2*math.Log2(float64(n))*a + 2*float64(n-1)/float64(n)*S*b
		}},
		{"all_reduce", "recursive_doubling", pow2, plain, func(n int, S, a, b float64) float64 {
			return math.Log2(float64(n)) * (a + S*b)
		}},
		{"all_reduce", "recursive_doubling", []int{3, 6}, plain, func(n int, S, a, b float64) float64 {
			return (math.Floor(math.Log2(float64(n))) + 2) * (a + S*b)
		}},
		{"all_reduce", "tree", pow2, plain, func(n int, S, a, b float64) float64 {
			return (4*math.Log2(float64(n)) - 2) * (a + S/2*b)
		}},
		{"all_reduce", "tree", []int{2}, func(n int) Config { return Config{Ranks: n, Chunks: 8} }, func(n int, S, a, b float64) float64 {
			return 2 * 8 * (a + S/16*b)
		}},
		// NCCL's tree across nodes: chains of g GPUs inside the n/4
		// nodes and the double binary tree over the nodes, unpipelined,
		// each of c channels on its own NVLink hop and NIC.
		{"all_reduce", "tree", []int{8, 16, 32}, channels(4), ncclTree(4)},
		{"all_reduce", "tree", []int{8, 16, 32}, channels(2), ncclTree(2)},
		{"all_reduce", "tree", []int{8, 16}, channels(1), ncclTree(1)},
		{"all_reduce", "hierarchical", pow2, func(n int) Config {
			nodes := max(1, n/4)
			return Config{Nodes: nodes, PerNode: n / nodes}
		}, func(n int, S, a, b float64) float64 {
			N := float64(max(1, n/4))
			g := float64(n) / N
			return 2*(g-1)*a + 2*(g-1)/g*S*b + 2*(N-1)*a + 2*(N-1)/N*S/g*b
		}},
		{"all_reduce", "ps", []int{2, 4, 8, 16}, func(n int) Config { return Config{Ranks: n, Servers: max(1, n/4)} }, func(n int, S, a, b float64) float64 {
			m := float64(max(1, n/4))
			return 2 * (float64(n) - m) * (a + S/m*b)
		}},
		// Channels across nodes, every rank with a port into its node and
		// a NIC: c rings each move S/c; per step the busiest rank sends
		// c−⌊c/g⌋ slices of S/(n·c) to its node neighbour and ⌈c/g⌉
		// through its NIC, at once, and the slower sets the pace.
		{"all_reduce", "ring", []int{4, 8, 16}, channels(4), func(n int, S, a, b float64) float64 {
			return 2 * float64(n-1) * channelStep(n, 4, S, a, b)
		}},
		{"all_reduce", "ring", []int{8}, func(n int) Config { return Config{Nodes: 1, PerNode: n, Channels: 8, Chunks: 2} }, func(n int, S, a, b float64) float64 {
			return 2*float64(n-1)*2*a + 2*float64(n-1)/float64(n)*S*b // one node: the channels share every hop
		}},
		{"all_reduce", "ring", []int{8, 16}, channels(1), func(n int, S, a, b float64) float64 {
			return 2*float64(n-1)*a + 2*float64(n-1)/float64(n)*S*b // one channel is Ring
		}},
		{"reduce_scatter", "ring", []int{4, 8, 16}, channels(2), func(n int, S, a, b float64) float64 {
			return float64(n-1) * channelStep(n, 2, S, a, b)
		}},
		{"all_gather", "ring", []int{8, 16}, channels(8), func(n int, S, a, b float64) float64 {
			return float64(n-1) * channelStep(n, 8, S, a, b)
		}},
		{"reduce_scatter", "ring", any, plain, func(n int, S, a, b float64) float64 {
			return float64(n-1)*a + float64(n-1)/float64(n)*S*b
		}},
		{"all_gather", "ring", any, plain, func(n int, S, a, b float64) float64 {
			return float64(n-1)*a + float64(n-1)/float64(n)*S*b
		}},
		{"all_to_all", "pairwise", any, plain, func(n int, S, a, b float64) float64 {
			return float64(n-1)*a + float64(n-1)/float64(n)*S*b
		}},
		// PXN on one port per rank: the M(g−1) NVLink messages of S/n
		// (gathers to the proxies, then the node's own exchange) go first,
		// then the M−1 NIC messages of g·S/n.
		{"all_to_all", "pxn", []int{4, 8, 16}, func(n int) Config {
			nodes := max(2, n/4)
			return Config{Nodes: nodes, PerNode: n / nodes}
		}, func(n int, S, a, b float64) float64 {
			M := float64(max(2, n/4))
			g := float64(n) / M
			return M*(g-1)*(a+S/float64(n)*b) + (M-1)*(a+g*S/float64(n)*b)
		}},
		{"broadcast", "binomial", any, func(n int) Config { return Config{Ranks: n, Root: n - 1} }, func(n int, S, a, b float64) float64 {
			return lg(n) * (a + S*b)
		}},
		{"broadcast", "chain", any, func(n int) Config { return Config{Ranks: n, Chunks: 8} }, func(n int, S, a, b float64) float64 {
			return float64(n+8-2) * (a + S/8*b)
		}},
		{"reduce", "binomial", any, func(n int) Config { return Config{Ranks: n, Root: 1} }, func(n int, S, a, b float64) float64 {
			return lg(n) * (a + S*b)
		}},
		{"sendrecv", "direct", []int{2}, plain, func(n int, S, a, b float64) float64 { return a + S*b }},
		{"barrier", "dissemination", any, plain, func(n int, S, a, b float64) float64 { return lg(n) * (a + 8*b) }},
	}
}

// TestTimeMatchesExecution runs every schedule in the port model (execute)
// and checks that Time predicts it within 0.5%, and that Time is the
// reference formula.
func TestTimeMatchesExecution(t *testing.T) {
	sizes := []units.Bytes{units.KiB, units.MiB, 256 * units.MiB, 1000003}
	worst, where := 0.0, ""
	for _, tc := range timingCases() {
		for _, n := range tc.ranks {
			cfg := tc.cfg(n)
			if cfg.Ranks == 0 {
				cfg.Ranks = n
			}
			for _, size := range sizes {
				if tc.algo == "ps" && size%units.Bytes(cfg.servers()) != 0 {
					// Uneven shards finish a byte-time apart, which reorders
					// the workers' FIFO ports: see TestParameterServerUnevenShards.
					continue
				}
				cfg.Bytes = size
				sch, err := New(tc.op, tc.algo, cfg)
				if err != nil {
					t.Fatalf("New(%s, %s, %+v) = %v", tc.op, tc.algo, cfg, err)
				}
				for _, alpha := range []units.Time{0, 5 * units.Microsecond} {
					for _, bw := range []units.Bandwidth{25 * units.GBps, 100 * units.GBps} {
						name := fmt.Sprintf("%s/%s n=%d chunks=%d S=%v α=%v B=%v", tc.op, tc.algo, n, cfg.Chunks, size, alpha, bw)
						got, err := Time(tc.op, tc.algo, cfg, alpha, bw)
						if err != nil {
							t.Fatalf("%s: Time: %v", name, err)
						}
						want := tc.want(n, float64(size), alpha.Seconds(), 1/float64(bw))
						if math.Abs(got-want) > 1e-12*want {
							t.Errorf("%s: Time = %g, want the formula's %g", name, got, want)
						}
						ran := execute(sch, alpha, bw)
						if cfg.Channels > 1 || (tc.algo == "tree" && cfg.Nodes > 1) {
							ran = executeNodes(sch, Link{alpha, bw}, Link{alpha, bw}, cfg.PerNode)
						}
						if rel := math.Abs(ran-got) / got; rel > 0.005 {
							t.Errorf("%s: execute = %g s, Time = %g s (%.2f%% apart), want within 0.5%%", name, ran, got, 100*rel)
						} else if rel > worst {
							worst, where = rel, name
						}
					}
				}
			}
		}
	}
	t.Logf("worst relative error %.4f%% (%s)", 100*worst, where)
}

// TestTreeTimeBoundsPipelinedExecution documents where the double binary
// tree's closed form is only a bound: with pieces, the ports'
// first-come-first-served order does not reach the conflict-free pipeline.
func TestTreeTimeBoundsPipelinedExecution(t *testing.T) {
	for _, n := range []int{3, 4, 5, 8, 16} {
		for _, k := range []int{1, 2, 8} {
			s := units.Bytes(units.MiB)
			got := execute(DoubleBinaryTree(n, s, k), 5*units.Microsecond, 25*units.GBps)
			bound := DoubleBinaryTreeTime(n, s, k, 5*units.Microsecond, 25*units.GBps)
			if k == 1 && got > bound*1.005 {
				t.Errorf("tree n=%d k=1: execute = %g, want at most DoubleBinaryTreeTime = %g", n, got, bound)
			}
			t.Logf("tree n=%d chunks=%d: execute/closed form = %.3f", n, k, got/bound)
		}
	}
}

// TestParameterServerUnevenShards records a known gap: when S is not a
// multiple of the number of servers, the servers with the smaller shard are
// ready to pull a byte-time early, the workers' incoming ports queue them
// first, and the pulls no longer run as matchings: up to 1.5× the closed
// form in the port model.
func TestParameterServerUnevenShards(t *testing.T) {
	cfg := Config{Ranks: 8, Servers: 2, Bytes: 1000003}
	s, err := New("all_reduce", "ps", cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Time("all_reduce", "ps", cfg, 0, units.GBps)
	got := execute(s, 0, units.GBps)
	if got < want*0.995 || got > want*1.5+1e-9 {
		t.Errorf("ps with uneven shards: execute = %g, want between Time = %g and 1.5×", got, want)
	}
	t.Logf("ps with uneven shards: execute/Time = %.3f", got/want)
}

// TestNCCLTreePipelineEstimate measures how close NCCLTreeTime's pipeline
// estimate (pieces > 1) comes to the port model, where it is not exact:
// first-come-first-served ports interleave the chains, the two trees and
// the channels less tightly than the estimate's steady state, up to 1.9×
// on 8 nodes with 16 pieces — the gap the flat tree has too
// (TestTreeTimeBoundsPipelinedExecution). Unpipelined, it is exact
// (TestTimeMatchesExecution).
func TestNCCLTreePipelineEstimate(t *testing.T) {
	intra := Link{2 * units.Microsecond, 300 * units.GBps}
	inter := Link{5 * units.Microsecond, 25 * units.GBps}
	for _, c := range [][4]int{{2, 4, 4, 4}, {4, 4, 4, 8}, {8, 4, 4, 16}, {4, 8, 8, 4}} {
		nodes, per, ch, k := c[0], c[1], c[2], c[3]
		for _, s := range []units.Bytes{64 * units.KiB, 64 * units.MiB} {
			ran := executeNodes(NCCLTree(nodes, per, s, k, ch), intra, inter, per)
			est := NCCLTreeTime(nodes, per, ch, k, s, intra, inter)
			if r := ran / est; r < 0.95 || r > 2 {
				t.Errorf("tree %d×%d c=%d k=%d S=%v: execute/estimate = %.3f, want within 0.95..2", nodes, per, ch, k, s, r)
			} else {
				t.Logf("tree %d×%d c=%d k=%d S=%v: execute/estimate = %.3f", nodes, per, ch, k, s, r)
			}
		}
	}
}
