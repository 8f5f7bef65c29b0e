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
