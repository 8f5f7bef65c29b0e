package nccltest

import (
	"math"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestRingOnASwitchMatchesAlphaBeta runs the ring through one switch:
// each message crosses an uplink and a downlink, uncontended, so the time
// is the closed form 2(n−1)α + 2(n−1)/n·S/B.
func TestRingOnASwitchMatchesAlphaBeta(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16} {
		for _, s := range []units.Bytes{units.MiB, units.GiB} {
			p := topo.Port{Bandwidth: 100 * units.GBps, Latency: 5 * units.Microsecond}
			tl, err := Collective(topo.Switched(n, p), collective.Ring(n, s), taskgraph.Identity(n), "ring")
			if err != nil {
				t.Fatal(err)
			}
			got := tl.End.Seconds()
			want := collective.RingTime(n, s, p.Latency, p.Bandwidth)
			if math.Abs(got-want)/want > 0.001 {
				t.Errorf("n=%d S=%v: %.9fs, formula %.9fs", n, s, got, want)
			}
		}
	}
}

// TestCrossingRingsShareALink places two 2-rank rings so that both cross
// the same inter-node link of a fat tree with one uplink: each runs at
// about half the speed it has alone.
func TestCrossingRingsShareALink(t *testing.T) {
	c, err := topo.Cluster(topo.ClusterConfig{Nodes: 2, PerNode: 2, NodesPerLeaf: 1, Oversubscription: 2,
		Intra: topo.Port{Bandwidth: 400 * units.GBps}, Inter: topo.Port{Bandwidth: 50 * units.GBps}, Network: topo.FatTree})
	if err != nil {
		t.Fatal(err)
	}
	// Leaf uplinks carry 2 × 50 / 2 = 50 GB/s: one ring (GPU 0 ↔ GPU 2)
	// alone gets 50 GB/s through them; two rings (0↔2 and 1↔3) share them.
	s := 256 * units.MiB
	alone, err := Collective(c, collective.Ring(2, s), []int{0, 2}, "alone")
	if err != nil {
		t.Fatal(err)
	}
	// Ranks 0, 1 are ring A on GPUs 0 and 2; ranks 2, 3 ring B on GPUs 1
	// and 3. Both cross from node 0 to node 1 through the same leaf uplink.
	ring := collective.Ring(2, s)
	two := collective.Schedule{Op: collective.OpAllReduce, Algorithm: "two rings", Ranks: 4, Bytes: s, Steps: ring.Steps}
	two.Transfers = append(two.Transfers, ring.Transfers...)
	for _, tr := range ring.Transfers {
		tr.Src, tr.Dst = tr.Src+2, tr.Dst+2
		after := make([]int, len(tr.After))
		for i, a := range tr.After {
			after[i] = a + len(ring.Transfers)
		}
		tr.After = after
		two.Transfers = append(two.Transfers, tr)
	}
	both, err := Collective(c, two, []int{0, 2, 1, 3}, "both")
	if err != nil {
		t.Fatal(err)
	}
	ratio := both.End.Seconds() / alone.End.Seconds()
	if ratio < 1.9 || ratio > 2.1 {
		t.Errorf("two crossing rings take %.2f× as long as one, want about 2×", ratio)
	}
}

func TestAnalyticAgreesWithDetailedWhenUncontended(t *testing.T) {
	p := topo.Port{Bandwidth: 50 * units.GBps, Latency: 8 * units.Microsecond}
	for _, n := range []int{4, 16} {
		sw := topo.Switched(n, p)
		s := 512 * units.MiB
		det, err := Collective(sw, collective.Ring(n, s), taskgraph.Identity(n), "")
		if err != nil {
			t.Fatal(err)
		}
		alpha, bw, err := topo.NewPaths(sw).Bottleneck(taskgraph.Identity(n))
		if err != nil {
			t.Fatal(err)
		}
		d := units.Round(collective.RingTime(n, s, alpha, bw))
		an, err := CollectiveAnalytic(sw, "all-reduce", "ring", s, taskgraph.Identity(n), d, "")
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(float64(an.End-det.End)) / float64(det.End); rel > 0.01 {
			t.Errorf("n=%d: analytic %v vs detailed %v (%.3f%%)", n, an.End, det.End, 100*rel)
		}
		if sum := an.Summarize(); sum.Communication != d || sum.GPUs[0].Busy != 1 {
			t.Errorf("analytic summary: communication %v busy %v", sum.Communication, sum.GPUs[0].Busy)
		}
	}
}

func TestCollectiveRejectsBadPlacement(t *testing.T) {
	sw := topo.Switched(4, topo.Port{Bandwidth: units.GBps})
	for _, gpus := range [][]int{{0, 1, 2}, {0, 1, 2, 2}, {0, 1, 2, 9}} {
		if _, err := Collective(sw, collective.Ring(4, units.MiB), gpus, ""); err == nil {
			t.Errorf("placement %v accepted", gpus)
		}
	}
}

func BenchmarkRing1024Detailed1GiB(b *testing.B) {
	c, _ := topo.Cluster(topo.ClusterConfig{Nodes: 128, PerNode: 8,
		Intra: topo.Port{Bandwidth: 450 * units.GBps, Latency: 3 * units.Microsecond},
		Inter: topo.Port{Bandwidth: 50 * units.GBps, Latency: 5 * units.Microsecond}, Network: topo.RailOptimized})
	sch := collective.Ring(1024, units.GiB)
	for b.Loop() {
		if _, err := Collective(c, sch, taskgraph.Identity(1024), ""); err != nil {
			b.Fatal(err)
		}
	}
}
