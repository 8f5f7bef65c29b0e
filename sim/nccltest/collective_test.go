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
	for i, tr := range ring.Transfers {
		after := make([]int, 0, len(ring.After(i)))
		for _, a := range ring.After(i) {
			after = append(after, int(a))
		}
		two.Add(tr, after, nil)
	}
	for i, tr := range ring.Transfers {
		tr.Src, tr.Dst = tr.Src+2, tr.Dst+2
		after := make([]int, 0, len(ring.After(i)))
		for _, a := range ring.After(i) {
			after = append(after, int(a)+len(ring.Transfers))
		}
		two.Add(tr, after, nil)
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

// BenchmarkRing1024Detailed1GiB is the detailed 1,024-GPU ring all-reduce
// of 1 GiB on 8 channels, one per NIC, as the CLI runs it by default:
// 4.2 M messages (two per GPU per step).
func BenchmarkRing1024Detailed1GiB(b *testing.B) {
	c, sch := ring1024()
	for b.Loop() {
		if _, err := Collective(c, sch, taskgraph.Identity(1024), ""); err != nil {
			b.Fatal(err)
		}
	}
}

// ring1024 is BenchmarkRing1024Detailed1GiB's cluster and schedule.
func ring1024() (*topo.Topology, collective.Schedule) {
	c, _ := topo.Cluster(topo.ClusterConfig{Nodes: 128, PerNode: 8,
		Intra: topo.Port{Bandwidth: 450 * units.GBps, Latency: 3 * units.Microsecond},
		Inter: topo.Port{Bandwidth: 50 * units.GBps, Latency: 5 * units.Microsecond}, Network: topo.RailOptimized})
	return c, collective.ChannelRing(collective.OpAllReduce, 128, 8, units.GiB, 1, 8)
}

// BenchmarkRing1024ValidateSchedule is the schedule check every run of
// BenchmarkRing1024Detailed1GiB pays: 4.2 M transfers.
func BenchmarkRing1024ValidateSchedule(b *testing.B) {
	_, sch := ring1024()
	for b.Loop() {
		if err := sch.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRing1024CheckTimeline is the timeline check every run of
// BenchmarkRing1024Detailed1GiB pays: 4.2 M messages.
func BenchmarkRing1024CheckTimeline(b *testing.B) {
	c, sch := ring1024()
	tl, err := Collective(c, sch, taskgraph.Identity(1024), "")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := taskgraph.Check(tl, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestChannelsDetailedAgreesWithAnalytic: ring ops and NCCL's tree on
// channels across the nodes of a rail-optimized cluster, every slice on
// the links (detailed), against collective.ChannelRingTime and
// NCCLTreeTime on the NVLink and NIC paths (analytic): within 2% when
// nothing else contends.
func TestChannelsDetailedAgreesWithAnalytic(t *testing.T) {
	intra := topo.Port{Bandwidth: 231 * units.GBps, Latency: 1900 * units.Nanosecond}
	inter := topo.Port{Bandwidth: units.Bandwidth(22.5e9), Latency: 4 * units.Microsecond}
	for _, tc := range []struct {
		op, algo                  string
		nodes, per, channels, chk int
		size                      units.Bytes
	}{
		{"all_reduce", "ring", 2, 8, 8, 1, 1 * units.GiB},
		{"all_reduce", "ring", 2, 8, 8, 1, 16 * units.MiB},
		{"all_reduce", "ring", 4, 8, 8, 4, 256 * units.MiB},
		{"all_reduce", "ring", 3, 4, 2, 1, 256 * units.MiB},
		{"all_reduce", "ring", 2, 4, 16, 1, 256 * units.MiB},
		{"reduce_scatter", "ring", 4, 8, 8, 1, 512 * units.MiB},
		{"all_gather", "ring", 2, 8, 4, 1, 512 * units.MiB},
		{"all_reduce", "tree", 2, 8, 8, 1, 1 * units.GiB},
		{"all_reduce", "tree", 16, 8, 8, 1, 8},
		{"all_reduce", "tree", 16, 8, 8, 1, 64 * units.MiB},
		{"all_reduce", "tree", 4, 4, 2, 1, 256 * units.MiB},
		{"all_reduce", "tree", 8, 2, 2, 1, 4 * units.MiB},
	} {
		c, err := topo.Cluster(topo.ClusterConfig{Nodes: tc.nodes, PerNode: tc.per, Intra: intra, Inter: inter, Network: topo.RailOptimized})
		if err != nil {
			t.Fatal(err)
		}
		cfg := collective.Config{Nodes: tc.nodes, PerNode: tc.per, Bytes: tc.size, Channels: tc.channels, Chunks: tc.chk}
		det, _, err := MeasureCollective(c, tc.op, tc.algo, cfg, taskgraph.Detailed)
		if err != nil {
			t.Fatal(err)
		}
		an, _, err := MeasureCollective(c, tc.op, tc.algo, cfg, taskgraph.Analytic)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s %s %d×%d, %d channels, %d chunks, %v", tc.algo, tc.op, tc.nodes, tc.per, tc.channels, tc.chk, tc.size)
		if rel := math.Abs(float64(an.Time-det.Time)) / float64(det.Time); rel > 0.02 {
			t.Errorf("%s: analytic %v, detailed %v (%.2f%% apart), want within 2%%", name, an.Time, det.Time, 100*rel)
		}
	}
}

// TestChannelsMultiplyTheNICs: across nodes, one ring per NIC gives the
// bus bandwidth of all the node's NICs, g times that of one ring.
func TestChannelsMultiplyTheNICs(t *testing.T) {
	c, err := topo.Cluster(topo.ClusterConfig{Nodes: 2, PerNode: 8, Network: topo.RailOptimized,
		Intra: topo.Port{Bandwidth: 231 * units.GBps}, Inter: topo.Port{Bandwidth: units.Bandwidth(22.5e9)}})
	if err != nil {
		t.Fatal(err)
	}
	one, _, err := MeasureCollective(c, "all_reduce", "ring", collective.Config{Nodes: 2, PerNode: 8, Bytes: units.GiB, Channels: 1}, taskgraph.Detailed)
	if err != nil {
		t.Fatal(err)
	}
	eight, _, err := MeasureCollective(c, "all_reduce", "ring", collective.Config{Nodes: 2, PerNode: 8, Bytes: units.GiB}, taskgraph.Detailed)
	if err != nil {
		t.Fatal(err)
	}
	if eight.Channels != 8 {
		t.Errorf("default channels = %d, want 8 (one per NIC)", eight.Channels)
	}
	if got, want := float64(eight.BusBW)/1e9, 8*22.5; math.Abs(got-want)/want > 0.01 {
		t.Errorf("8 channels: busbw %.1f GB/s, want %.1f (8 NICs of 22.5)", got, want)
	}
	if got, want := float64(one.BusBW)/1e9, 22.5; math.Abs(got-want)/want > 0.01 {
		t.Errorf("1 channel: busbw %.1f GB/s, want %.1f (one NIC)", got, want)
	}
}
