package nccltest

import (
	"math"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
)

// TestScaleUpAllReduceClosedForms runs an all-reduce in detail on each
// scale-up domain and compares it with its closed form: on a switch
// (GB200 NVL72, B200, H800) the ring's 2(n−1)α + 2(n−1)/n·S/B; on the
// MI300X mesh the ring on one cable of B/7 per peer, and the direct
// all-reduce on all seven at once, 2(α + S/n·β) (DirectMeshTime).
func TestScaleUpAllReduceClosedForms(t *testing.T) {
	const s = 256 * units.MiB
	cases := []struct {
		gpu, algo string
		want      func(n int, l collective.Link) float64
	}{
		{"gb200", "ring", ringTime(s)}, {"b200", "ring", ringTime(s)}, {"h800", "ring", ringTime(s)},
		{"mi300x", "ring", ringTime(s)},
		{"mi300x", "direct", func(n int, l collective.Link) float64 { return collective.DirectMeshTime(n, s, l) }},
	}
	for _, tc := range cases {
		b, err := cluster.Build(cluster.Spec{GPU: tc.gpu})
		if err != nil {
			t.Fatal(err)
		}
		n := b.Spec.PerNode
		cfg := collective.Config{Ranks: n, Nodes: 1, PerNode: n, Bytes: s}
		m, tl, err := MeasureCollective(b.Topology, "all_reduce", tc.algo, cfg, taskgraph.Detailed)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.gpu, tc.algo, err)
		}
		if err := tl.Validate(); err != nil {
			t.Errorf("%s %s: %v", tc.gpu, tc.algo, err)
		}
		want := tc.want(n, collective.Link{Alpha: b.Intra.Latency, Bandwidth: b.Intra.Bandwidth})
		if rel := math.Abs(m.Time.Seconds()-want) / want; rel > 0.005 {
			t.Errorf("%s %s on %d GPUs: got %v, closed form %.4g ms (%.2f%% off)", tc.gpu, tc.algo, n, m.Time, want*1e3, 100*rel)
		}
	}
}

func ringTime(s units.Bytes) func(n int, l collective.Link) float64 {
	return func(n int, l collective.Link) float64 {
		nf := float64(n)
		return 2*(nf-1)*l.Alpha.Seconds() + 2*(nf-1)/nf*float64(s)/float64(l.Bandwidth)
	}
}

// TestMeshAutoPicksDirect: on the MI300X mesh auto takes the direct
// all-reduce, whose bus bandwidth at large sizes is the seven cables'
// sum, (n−1)·B, where a ring gets one cable's B; on a switch auto never
// offers it.
func TestMeshAutoPicksDirect(t *testing.T) {
	b, err := cluster.Build(cluster.Spec{GPU: "mi300x"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := collective.Config{Ranks: 8, Nodes: 1, PerNode: 8, Bytes: units.GiB}
	m, _, err := MeasureCollective(b.Topology, "all_reduce", "auto", cfg, taskgraph.Analytic)
	if err != nil {
		t.Fatal(err)
	}
	if m.Algorithm != AlgorithmDirect {
		t.Errorf("auto on the mesh picked %s, want direct", m.Algorithm)
	}
	if got, want := float64(m.BusBW), 7*float64(b.Intra.Bandwidth); math.Abs(got-want)/want > 0.01 {
		t.Errorf("mesh busbw %.4g GB/s, want 7 cables' %.4g", got/1e9, want/1e9)
	}
	sw, _ := cluster.Build(cluster.Spec{GPU: "h100-sxm"})
	c, err := Choose(sw.Topology, "all_reduce", cfg, taskgraph.Identity(8))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Predictions {
		if p.Algorithm == AlgorithmDirect {
			t.Error("auto offered direct on a switch")
		}
	}
}

// TestMultiNodeMeshChannelsTakeTheirOwnCables: across MI300X nodes the
// ring's channels cross each node's mesh on cables of their own
// (collective.MeshChannelRing), so one channel per NIC reaches the NICs'
// rate instead of crowding onto one xGMI cable. Detailed and analytic
// agree within 2%; the bus bandwidth is just under eight NICs' payload
// rate (8 × 45 GB/s on ib-ndr) and more than 5× that of the layout that
// walked every channel through the same cables (about 55 GB/s).
func TestMultiNodeMeshChannelsTakeTheirOwnCables(t *testing.T) {
	for _, nodes := range []int{2, 4} {
		b, err := cluster.Build(cluster.Spec{GPU: "mi300x", Nodes: nodes, PerNode: 8, Inter: "ib-ndr"})
		if err != nil {
			t.Fatal(err)
		}
		cfg := collective.Config{Nodes: nodes, PerNode: 8, Bytes: units.GiB}
		var bus [2]float64
		for i, fid := range []string{taskgraph.Detailed, taskgraph.Analytic} {
			m, tl, err := MeasureCollective(b.Topology, "all_reduce", "ring", cfg, fid)
			if err != nil {
				t.Fatal(err)
			}
			if err := tl.Validate(); err != nil {
				t.Fatal(err)
			}
			bus[i] = float64(m.BusBW) / 1e9
		}
		if rel := math.Abs(bus[0]-bus[1]) / bus[1]; rel > 0.02 {
			t.Errorf("%d MI300X nodes: detailed %.1f GB/s, analytic %.1f GB/s (%.2f%% apart)", nodes, bus[0], bus[1], 100*rel)
		}
		nic := 8 * float64(b.Inter.Bandwidth) / 1e9
		if bus[0] > nic || bus[0] < 0.85*nic || bus[0] < 5*55 {
			t.Errorf("%d MI300X nodes: ring busbw %.1f GB/s, want just under eight NICs' %.0f", nodes, bus[0], nic)
		}
		t.Logf("%d × 8 MI300X, ib-ndr, 1 GiB ring: busbw %.1f GB/s detailed, %.1f analytic", nodes, bus[0], bus[1])
	}
}
