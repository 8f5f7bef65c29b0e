package nccltest

import (
	"math"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestEveryAlgorithmMatchesItsClosedForm runs each operation and algorithm
// in detail on an ideal switch (uncontended: one port per GPU each way) and
// compares with collective.Time, the α–β formulas of Thakur, Rabenseifner
// & Gropp (2005).
func TestEveryAlgorithmMatchesItsClosedForm(t *testing.T) {
	p := topo.Port{Bandwidth: 100 * units.GBps, Latency: 5 * units.Microsecond}
	cases := []struct {
		op, algo string
		n        int
	}{
		{"all_reduce", "ring", 8}, {"all_reduce", "ring", 6}, {"all_reduce", "tree", 8}, {"all_reduce", "tree", 16},
		{"all_reduce", "halving_doubling", 8}, {"all_reduce", "recursive_doubling", 8},
		{"reduce_scatter", "ring", 8}, {"all_gather", "ring", 8},
		{"broadcast", "binomial", 8}, {"broadcast", "chain", 8}, {"reduce", "binomial", 8},
		{"all_to_all", "pairwise", 8}, {"all_to_all", "pxn", 8}, {"all_to_all", "pxn", 12},
		{"sendrecv", "direct", 2}, {"barrier", "dissemination", 8},
	}
	for _, tc := range cases {
		for _, s := range []units.Bytes{4 * units.KiB, 64 * units.MiB} {
			sw := topo.Switched(tc.n, p)
			cfg := collective.Config{Ranks: tc.n, Bytes: s}
			if tc.algo == "pxn" {
				// Nodes of 4 ranks on one switch: every rank's single
				// port carries its NVLink and NIC messages alike.
				cfg.Nodes, cfg.PerNode = tc.n/4, 4
			}
			m, tl, err := MeasureCollective(sw, tc.op, tc.algo, cfg, taskgraph.Detailed)
			if err != nil {
				t.Fatalf("%s/%s n=%d: %v", tc.op, tc.algo, tc.n, err)
			}
			if err := tl.Validate(); err != nil {
				t.Errorf("%s/%s: %v", tc.op, tc.algo, err)
			}
			want, err := collective.Time(tc.op, tc.algo, cfg, p.Latency, p.Bandwidth)
			if err != nil {
				t.Fatal(err)
			}
			if rel := math.Abs(m.Time.Seconds()-want) / want; rel > 0.005 {
				t.Errorf("%s/%s n=%d S=%v: simulated %v, closed form %.3fµs (%.3f%% off)", tc.op, tc.algo, tc.n, s, m.Time, want*1e6, 100*rel)
			}
		}
	}
}

func TestHierarchicalMatchesItsClosedForm(t *testing.T) {
	b, err := cluster.Build(cluster.Spec{Nodes: 4, PerNode: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []units.Bytes{units.MiB, 256 * units.MiB} {
		cfg := collective.Config{Ranks: 16, Nodes: 4, PerNode: 4, Bytes: s}
		det, _, err := MeasureCollective(b.Topology, "all_reduce", "hierarchical", cfg, taskgraph.Detailed)
		if err != nil {
			t.Fatal(err)
		}
		an, _, err := MeasureCollective(b.Topology, "all_reduce", "hierarchical", cfg, taskgraph.Analytic)
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(float64(det.Time-an.Time)) / float64(an.Time); rel > 0.01 {
			t.Errorf("S=%v: detailed %v, analytic %v (%.2f%%)", s, det.Time, an.Time, 100*rel)
		}
	}
}

// TestTreeBeatsRingForSmallMessages: on 64 H100s in 8 nodes, the tree's
// O(log n) latency wins for 1 KiB, the ring's bandwidth wins for 1 GiB.
func TestTreeBeatsRingForSmallMessages(t *testing.T) {
	b, err := cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: 8, PerNode: 8})
	if err != nil {
		t.Fatal(err)
	}
	time := func(algo string, s units.Bytes) units.Time {
		m, _, err := MeasureCollective(b.Topology, "all_reduce", algo, collective.Config{Ranks: 64, Bytes: s}, taskgraph.Detailed)
		if err != nil {
			t.Fatal(err)
		}
		return m.Time
	}
	if tree, ring := time("tree", units.KiB), time("ring", units.KiB); tree >= ring {
		t.Errorf("1 KiB: tree %v, ring %v; want tree faster", tree, ring)
	}
	if tree, ring := time("tree", units.GiB), time("ring", units.GiB); ring >= tree {
		t.Errorf("1 GiB: tree %v, ring %v; want ring faster", tree, ring)
	}
}

// TestH100BusBandwidth: the calibrated nvlink4 gives nccl-tests' published
// ring busbw for 8 × H100 (hw's MeasuredBusBW) within 10%.
func TestH100BusBandwidth(t *testing.T) {
	b, err := cluster.Build(cluster.Spec{GPU: "h100-sxm"})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := MeasureCollective(b.Topology, "all_reduce", "ring", collective.Config{Ranks: 8, Bytes: 8 * units.GiB}, taskgraph.Detailed)
	if err != nil {
		t.Fatal(err)
	}
	const published = 370e9 // NVIDIA/nccl-tests issue #212 (see hw's nvlink4 entry)
	if rel := math.Abs(float64(m.BusBW)-published) / published; rel > 0.10 {
		t.Errorf("busbw %.1f GB/s, published %.0f GB/s (%.1f%% off)", float64(m.BusBW)/1e9, published/1e9, 100*rel)
	}
}

func TestAnalyticScalesTo16384GPUs(t *testing.T) {
	b, err := cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: 2048, PerNode: 8})
	if err != nil {
		t.Fatal(err)
	}
	m, tl, err := MeasureCollective(b.Topology, "all_reduce", "ring", collective.Config{Ranks: 16384, Bytes: units.GiB}, taskgraph.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if m.Fidelity != taskgraph.Analytic || tl.Fidelity != taskgraph.Analytic {
		t.Errorf("fidelity %s, want analytic for 16,384 GPUs", m.Fidelity)
	}
	// The ring crosses nodes, so the closed form runs on the NIC's link:
	// 2(n−1)α + 2(n−1)/n·S/B with ib-ndr's α and effective bandwidth.
	n, s := 16384.0, float64(units.GiB)
	want := 2*(n-1)*b.Inter.Latency.Seconds() + 2*(n-1)/n*s/float64(b.Inter.Bandwidth)
	if rel := math.Abs(m.Time.Seconds()-want) / want; rel > 1e-6 {
		t.Errorf("analytic ring on 16,384 GPUs: %v, closed form %.6fs", m.Time, want)
	}
}

func BenchmarkAnalytic16384(b *testing.B) {
	c, _ := cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: 2048, PerNode: 8})
	for b.Loop() {
		if _, _, err := MeasureCollective(c.Topology, "all_reduce", "ring", collective.Config{Ranks: 16384, Bytes: units.GiB}, taskgraph.Analytic); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAllToAllDetailedAgreesWithAnalytic: across nodes, each with a port
// into its NVSwitch and a NIC per GPU, the pairwise exchange and PXN run
// in detail as their two-level closed forms say (within 2%):
// collective.AllToAllPairwiseTwoLevelTime and AllToAllPXNTime. On a
// rail-optimized network PXN's messages stay on their rail and its NIC
// carries what pairwise's does in M−1 messages instead of n−g, so it is
// faster at small sizes, where the latency counts.
func TestAllToAllDetailedAgreesWithAnalytic(t *testing.T) {
	for _, shape := range [][2]int{{2, 8}, {4, 8}, {3, 4}} {
		b, err := cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: shape[0], PerNode: shape[1], Inter: "ib-ndr"})
		if err != nil {
			t.Fatal(err)
		}
		var times [2][2]float64
		for j, size := range []units.Bytes{64 * units.KiB, 256 * units.MiB} {
			for i, algo := range []string{"pairwise", "pxn"} {
				cfg := collective.Config{Nodes: shape[0], PerNode: shape[1], Bytes: size}
				det, tl, err := MeasureCollective(b.Topology, "all_to_all", algo, cfg, taskgraph.Detailed)
				if err != nil {
					t.Fatal(err)
				}
				if err := tl.Validate(); err != nil {
					t.Fatal(err)
				}
				ana, _, err := MeasureCollective(b.Topology, "all_to_all", algo, cfg, taskgraph.Analytic)
				if err != nil {
					t.Fatal(err)
				}
				if rel := math.Abs(det.Time.Seconds()-ana.Time.Seconds()) / det.Time.Seconds(); rel > 0.02 {
					t.Errorf("%s %d×%d %v: detailed %v, analytic %v (%.2f%% apart)", algo, shape[0], shape[1], size, det.Time, ana.Time, 100*rel)
				}
				times[j][i] = det.Time.Seconds()
			}
		}
		if !(times[0][1] < times[0][0]) {
			t.Errorf("%d×%d at 64 KiB: pxn %.4g s, pairwise %.4g s; want pxn faster", shape[0], shape[1], times[0][1], times[0][0])
		}
		t.Logf("%d×%d H100: 64 KiB pairwise %.1f µs, pxn %.1f µs; 256 MiB pairwise %.3f ms, pxn %.3f ms", shape[0], shape[1],
			times[0][0]*1e6, times[0][1]*1e6, times[1][0]*1e3, times[1][1]*1e3)
	}
}
