package nccltest

import (
	"fmt"
	"math"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// dgxA100 is N rail-optimized DGX A100-like nodes: 8 GPUs on NVLink 3
// (231 GB/s, α 1.9 µs) and one HDR NIC each (22.5 GB/s, α 4 µs), the
// catalog's figures.
func dgxA100(t *testing.T, nodes int) *topo.Topology {
	t.Helper()
	c, err := topo.Cluster(topo.ClusterConfig{Nodes: nodes, PerNode: 8, Network: topo.RailOptimized,
		Intra: topo.Port{Bandwidth: 231 * units.GBps, Latency: 1900 * units.Nanosecond},
		Inter: topo.Port{Bandwidth: units.Bandwidth(22.5e9), Latency: 4 * units.Microsecond}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestRingTreeCrossover16Nodes: on 16 DGX A100 nodes (n = 128, g = 8
// channels, one per NIC), the ring and NCCL's tree cost, written out from
// their schedules,
//
//	ring: 2(n−1)·(α_e + S/(n·g·B_e))   (the NIC hop is the slower one)
//	tree: 2(g−1)·(α_i + S/(g·B_i)) + (4·log₂16 − 2)·(α_e + S/(2g·B_e))
//
// are equal at S* = (2(n−1)α_e − 14α_i − 14α_e) / (14/(g·B_i) + 14/(2g·B_e)
// − 2(n−1)/(n·g·B_e)) ≈ 26.3 MB. Detailed runs must put the tree ahead
// below S* and the ring ahead above it, and the closed forms the analytic
// fidelity and auto use must swap there.
func TestRingTreeCrossover16Nodes(t *testing.T) {
	const n, g, N = 128, 8, 16
	ai, ae, bi, be := 1.9e-6, 4e-6, 231e9, 22.5e9
	steps := 2.0 * (n - 1)
	treeMsgs := 4*math.Log2(N) - 2
	star := (steps*ae - 2*(g-1)*ai - treeMsgs*ae) / (2*(g-1)/(g*bi) + treeMsgs/(2*g*be) - steps/(n*g*be))
	if star < 26e6 || star > 26.6e6 {
		t.Fatalf("S* = %.4g B, want about 26.3 MB (check the formula)", star)
	}
	c := dgxA100(t, N)
	for _, f := range []float64{0.8, 1.25} {
		s := units.Bytes(f * star)
		cfg := collective.Config{Nodes: N, PerNode: g, Bytes: s}
		ring, _, err := MeasureCollective(c, "all_reduce", "ring", cfg, taskgraph.Detailed)
		if err != nil {
			t.Fatal(err)
		}
		tree, _, err := MeasureCollective(c, "all_reduce", "tree", cfg, taskgraph.Detailed)
		if err != nil {
			t.Fatal(err)
		}
		if below := f < 1; (tree.Time < ring.Time) != below {
			t.Errorf("S = %.2f·S* (%v): ring %v, tree %v; want the tree faster exactly below S*", f, s, ring.Time, tree.Time)
		}
	}
	// Where the predictions swap, found by bisection, is S*.
	pick := func(s float64) string {
		cfg := collective.Config{Nodes: N, PerNode: g, Channels: g, Bytes: units.Bytes(s)}
		ring, err := Predict(c, "all_reduce", "ring", cfg, taskgraph.Identity(n))
		if err != nil {
			t.Fatal(err)
		}
		tree, err := Predict(c, "all_reduce", "tree", cfg, taskgraph.Identity(n))
		if err != nil {
			t.Fatal(err)
		}
		if tree < ring {
			return "tree"
		}
		return "ring"
	}
	lo, hi := star/4, star*4
	if pick(hi) != "ring" {
		t.Fatalf("at %.3g B the prediction favours %s, want ring", hi, pick(hi))
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if pick(mid) == "ring" {
			hi = mid
		} else {
			lo = mid
		}
	}
	if rel := math.Abs(hi-star) / star; rel > 1e-3 {
		t.Errorf("the predictions swap at %.6g B, want S* = %.6g (%.3f%% off)", hi, star, 100*rel)
	}
}

// TestTinyMessagesCostTheLatencyTerm: for tiny buffers a detailed run's
// time is the algorithm's latency term, each message's α as the protocol
// sees it (NCCL's hwLat: α_i 3.4 µs and α_e 9.6 µs under Simple, 0.47 and
// 2.7 µs under LL): NCCL's tree across N nodes of g GPUs, 2(g−1)·α_i +
// (4⌈log₂N⌉−2)·α_e, at 8 B; the channel ring, 2(n−1)·α_e, at 8 B per
// slice (at 8 B in all, most slices are empty and are not sent); and at
// 8 B what auto picks across 16 nodes, recursive doubling under LL,
// log₂g·α_i + log₂N·α_e.
func TestTinyMessagesCostTheLatencyTerm(t *testing.T) {
	for _, tc := range []struct {
		nodes   int
		algo    string
		proto   string
		size    units.Bytes
		ai, ae  float64
		latency func(n, g, N int, ai, ae float64) float64
	}{
		{16, "tree", "simple", 8, 3.4e-6, 9.6e-6, treeLatency},
		{16, "tree", "ll", 8, 0.47e-6, 2.7e-6, treeLatency},
		{2, "tree", "ll", 8, 0.47e-6, 2.7e-6, treeLatency},
		{2, "ring", "ll", 16 * 8 * 8, 0.47e-6, 2.7e-6, ringLatency},
		{4, "ring", "simple", 32 * 8 * 8, 3.4e-6, 9.6e-6, ringLatency},
		{16, "auto", "auto", 8, 0.47e-6, 2.7e-6, doublingLatency},
	} {
		c := dgxA100(t, tc.nodes)
		cfg := collective.Config{Nodes: tc.nodes, PerNode: 8, Bytes: tc.size}
		m, _, err := MeasureProtocol(c, "all_reduce", tc.algo, tc.proto, cfg, taskgraph.Detailed)
		if err != nil {
			t.Fatal(err)
		}
		want := tc.latency(8*tc.nodes, 8, tc.nodes, tc.ai, tc.ae)
		name := fmt.Sprintf("%s/%s on %d nodes at %v", m.Algorithm, m.Protocol, tc.nodes, tc.size)
		if tc.algo == "auto" && (m.Algorithm != "recursive_doubling" || m.Protocol != "ll") {
			t.Errorf("%s: auto picked %s/%s, want recursive_doubling/ll (%s)", name, m.Algorithm, m.Protocol, m.Why)
		}
		if got := m.Time.Seconds(); math.Abs(got-want)/want > 0.01 {
			t.Errorf("%s: %.4g s, want the latency term %.4g s", name, got, want)
		}
	}
}

func treeLatency(n, g, N int, ai, ae float64) float64 {
	return 2*float64(g-1)*ai + (4*math.Ceil(math.Log2(float64(N)))-2)*ae
}

func ringLatency(n, g, N int, ai, ae float64) float64 { return 2 * float64(n-1) * ae }

func doublingLatency(n, g, N int, ai, ae float64) float64 {
	return math.Log2(float64(g))*ai + math.Log2(float64(N))*ae
}

// TestProtocolsDetailedAgreeWithAnalytic: under every protocol the
// detailed run (every message on the links as the protocol sees them)
// and the closed form agree within 2% across 4 DGX A100 nodes.
func TestProtocolsDetailedAgreeWithAnalytic(t *testing.T) {
	c := dgxA100(t, 4)
	for _, proto := range collective.ProtocolNames() {
		for _, algo := range []string{"ring", "tree", "hierarchical"} {
			for _, s := range []units.Bytes{256 * units.KiB, 64 * units.MiB} {
				cfg := collective.Config{Nodes: 4, PerNode: 8, Bytes: s}
				det, _, err := MeasureProtocol(c, "all_reduce", algo, proto, cfg, taskgraph.Detailed)
				if err != nil {
					t.Fatal(err)
				}
				an, _, err := MeasureProtocol(c, "all_reduce", algo, proto, cfg, taskgraph.Analytic)
				if err != nil {
					t.Fatal(err)
				}
				if rel := math.Abs(float64(an.Time-det.Time)) / float64(det.Time); rel > 0.02 {
					t.Errorf("%s/%s at %v: analytic %v, detailed %v (%.2f%% apart), want within 2%%", algo, proto, s, an.Time, det.Time, 100*rel)
				}
			}
		}
	}
}
