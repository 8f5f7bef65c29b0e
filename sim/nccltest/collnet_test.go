package nccltest

import (
	"strings"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/units"
)

// TestCollNet: on DGX H100 nodes over NDR (SHARP switches) CollNet runs
// when asked, at its closed form, above the ring's bus bandwidth, whose
// NIC term grows with 2(n−1)/n; auto never takes it; and it is refused,
// naming why, without SHARP, on one node, and with another protocol.
func TestCollNet(t *testing.T) {
	b, err := cluster.Build(cluster.Spec{GPU: "h100-sxm", Nodes: 4})
	if err != nil {
		t.Fatal(err)
	}
	cfg := collective.Config{Ranks: 32, Nodes: 4, PerNode: 8, Bytes: units.GiB}
	o := Options{SHARP: SHARPCapable(b.Spec.Inter)}
	if !o.SHARP {
		t.Fatalf("%s is not SHARP-capable", b.Spec.Inter)
	}
	cn, _, err := MeasureWith(b.Topology, "all_reduce", AlgorithmCollNet, o, cfg, taskgraph.Auto)
	if err != nil {
		t.Fatal(err)
	}
	ring, _, err := MeasureWith(b.Topology, "all_reduce", "ring", Options{}, cfg, taskgraph.Analytic)
	if err != nil {
		t.Fatal(err)
	}
	if cn.Fidelity != taskgraph.Analytic || !(cn.BusBW > ring.BusBW) {
		t.Errorf("collnet %v GB/s (%s), ring %v GB/s: want collnet analytic and faster", float64(cn.BusBW)/1e9, cn.Fidelity, float64(ring.BusBW)/1e9)
	}
	auto, _, err := MeasureWith(b.Topology, "all_reduce", "auto", Options{Protocol: ProtocolAuto, SHARP: true, NVLS: true}, cfg, taskgraph.Analytic)
	if err != nil {
		t.Fatal(err)
	}
	if auto.Algorithm == AlgorithmCollNet {
		t.Error("auto picked collnet, which NCCL runs only when enabled")
	}
	one := collective.Config{Ranks: 8, Nodes: 1, PerNode: 8, Bytes: units.MiB}
	for _, bad := range []struct {
		name string
		o    Options
		cfg  collective.Config
		want string
	}{
		{"no SHARP", Options{}, cfg, "SHARP"},
		{"one node", o, one, "between nodes"},
		{"ll", Options{SHARP: true, Protocol: "ll"}, cfg, "simple"},
	} {
		_, _, err := MeasureWith(b.Topology, "all_reduce", AlgorithmCollNet, bad.o, bad.cfg, taskgraph.Analytic)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want one saying %q", bad.name, err, bad.want)
		}
	}
}
