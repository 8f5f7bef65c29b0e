package nccltest

import (
	"math"
	"strings"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
)

// TestNVLSOn8H100 prices NVLS on one 8 × H100 node against the bytes
// the busier direction of each link carries, (1 + 1/n)·S of payload and
// the switch's read requests, 1/9 of S at the catalog's NVLink 4 payload
// rate (369 GB/s): nccl-tests' busbw 2(n−1)/n · 369/((n+1)/n + 1/9) =
// 522 GB/s at large sizes. NVIDIA's maintainer gives about 480
// (NVIDIA/nccl-tests issue #212), +8.8%: see collective.NVLSTime. The
// test holds the formula and the gallery's 10%.
func TestNVLSOn8H100(t *testing.T) {
	built, err := cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: 1})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{NVLS: NVLSCapable(built.Spec.Intra)}
	if !o.NVLS {
		t.Fatalf("h100-sxm's link %s is not NVLS-capable", built.Spec.Intra)
	}
	cfg := collective.Config{Nodes: 1, PerNode: 8, Bytes: 8 * units.GiB}
	m, _, err := MeasureWith(built.Topology, "all_reduce", AlgorithmNVLS, o, cfg, taskgraph.Detailed)
	if err != nil {
		t.Fatal(err)
	}
	b := float64(built.Intra.Bandwidth) / 1e9
	want := 2 * 7.0 / 8 * b / (9.0/8 + 1.0/9)
	got := float64(m.BusBW) / 1e9
	if math.Abs(got-want)/want > 0.001 || m.Fidelity != taskgraph.Analytic {
		t.Errorf("nvls busbw %.1f GB/s at %s fidelity, want %.1f (2(n−1)/n of %.0f over (n+1)/n + 1/9) at analytic", got, m.Fidelity, want, b)
	}
	if gap := got/480 - 1; math.Abs(gap) > 0.10 {
		t.Errorf("nvls 8×H100 8 GiB: busbw %.1f GB/s, %+.1f%% from the published ~480 (nccl-tests#212), want within 10%%", got, 100*gap)
	}
	t.Logf("nvls 8×H100 8 GiB: busbw %.1f GB/s; published ~480 (nccl-tests#212): %+.1f%%", got, 100*(got/480-1))
	auto, _, err := MeasureWith(built.Topology, "all_reduce", "auto", Options{Protocol: ProtocolAuto, NVLS: true}, cfg, taskgraph.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if auto.Algorithm != AlgorithmNVLS || auto.Protocol != "simple" {
		t.Errorf("auto at 8 GiB on 8×H100 picked %s/%s, want nvls/simple (%s)", auto.Algorithm, auto.Protocol, auto.Why)
	}
}

func TestNVLSRefusals(t *testing.T) {
	a100, _ := cluster.Build(cluster.Spec{GPU: "a100-sxm-80gb", Nodes: 1})
	h100x2, _ := cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: 2, PerNode: 8, Inter: "ib-ndr"})
	for _, tc := range []struct {
		name  string
		built *cluster.Built
		op    string
		o     Options
		want  string
	}{
		{"A100's NVSwitch does not reduce", a100, "all_reduce", Options{NVLS: NVLSCapable(a100.Spec.Intra)}, "needs a switch that reduces"},
		{"two nodes", h100x2, "all_reduce", Options{NVLS: true}, "span nodes"},
		{"LL", h100x2, "all_reduce", Options{NVLS: true, Protocol: "ll"}, "simple protocol only"},
		{"broadcast", a100, "broadcast", Options{NVLS: true}, "not broadcast"},
	} {
		n := len(tc.built.Topology.GPUs)
		cfg := collective.Config{Nodes: tc.built.Spec.Nodes, PerNode: tc.built.Spec.PerNode, Bytes: units.MiB}
		if tc.name == "LL" {
			tc.built, _ = cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: 1})
			n, cfg.Nodes, cfg.PerNode = 8, 1, 8
		}
		_, _, err := MeasureWith(tc.built.Topology, tc.op, AlgorithmNVLS, tc.o, cfg, taskgraph.Detailed)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s (%d GPUs): error %v, want one saying %q", tc.name, n, err, tc.want)
		}
	}
}

// TestNVLSGatherScatter: NVLS all-gather and reduce-scatter carry S on
// the busier direction of every link (collective.NVLSGatherScatterTime),
// so their bus bandwidth on 8 × H100 is (n−1)/n of the ring's 369 GB/s,
// 323 GB/s: within 10% of the ~300 GB/s a user measured for the NVLS
// all-gather at 1 GB (NVIDIA/nccl issue #1506). At 8 GiB auto takes the
// ring; at 64 KiB NVLS, its one step against the ring's seven.
func TestNVLSGatherScatter(t *testing.T) {
	built, err := cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: 1})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{NVLS: true}
	for _, op := range []string{"all_gather", "reduce_scatter"} {
		cfg := collective.Config{Nodes: 1, PerNode: 8, Bytes: units.GiB}
		m, _, err := MeasureWith(built.Topology, op, AlgorithmNVLS, o, cfg, taskgraph.Detailed)
		if err != nil {
			t.Fatal(err)
		}
		b := float64(built.Intra.Bandwidth) / 1e9
		if got, want := float64(m.BusBW)/1e9, 7.0/8*b; math.Abs(got-want)/want > 0.001 {
			t.Errorf("nvls %s: busbw %.1f GB/s, want %.1f ((n−1)/n of %.0f)", op, got, want, b)
		}
		for _, c := range []struct {
			size units.Bytes
			want string
		}{{8 * units.GiB, "ring"}, {64 * units.KiB, AlgorithmNVLS}} {
			cfg.Bytes = c.size
			auto, _, err := MeasureWith(built.Topology, op, "auto", o, cfg, taskgraph.Auto)
			if err != nil {
				t.Fatal(err)
			}
			if auto.Algorithm != c.want {
				t.Errorf("%s %v: auto picked %s, want %s (%s)", op, c.size, auto.Algorithm, c.want, auto.Why)
			}
		}
	}
}
