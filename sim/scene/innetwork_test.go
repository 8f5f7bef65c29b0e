package scene

import (
	"math"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/cluster"
	"paraplay/sim/collective"
	"paraplay/sim/nccltest"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestInNetworkLoads checks the link loads the picture draws for the
// in-network all-reduces against their closed forms: the stage that sets
// the pace keeps its links busy for all of T but the latencies L, so the
// busiest link's load is (T − L)/T — NVLS: L = 2α on 8 H100s;
// CollNet: L = 2(g−1)·α₁ + 2·α₂ on two DGX A100s, for a buffer whose NICs
// pace it and one whose NVLink does. It also checks which switches add:
// the node's for NVLS, the leaves for CollNet, and the spine too when the
// GPUs of one local index sit under two leaves (a fat tree of two leaves).
func TestInNetworkLoads(t *testing.T) {
	h100 := build(t, cluster.Spec{GPU: "h100-sxm", Nodes: 1, PerNode: 8})
	a100 := build(t, cluster.Spec{GPU: "a100-sxm-80gb", Nodes: 2, PerNode: 8, Inter: "ib-hdr"})
	leaves, err := topo.Cluster(topo.ClusterConfig{Nodes: 4, PerNode: 2, Intra: a100.Intra, Inter: a100.Inter,
		Network: topo.FatTree, NodesPerLeaf: 2, Oversubscription: 1})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		t          *topo.Topology
		algo       string
		nodes, per int
		latency    units.Time
		adding     string // the kinds of the switches that add
	}{
		{"nvls", h100.Topology, "nvls", 1, 8, 2 * h100.Intra.Latency, "nvlink"},
		{"collnet, NVLink-bound", a100.Topology, "collnet", 2, 8, 14*a100.Intra.Latency + 2*a100.Inter.Latency, "leaf"},
		{"collnet, NIC-bound, two leaves", leaves, "collnet", 4, 2, 2*a100.Intra.Latency + 2*a100.Inter.Latency, "spine leaf"},
	}
	for _, c := range cases {
		cfg := collective.Config{Ranks: c.nodes * c.per, Nodes: c.nodes, PerNode: c.per, Bytes: units.GiB}
		_, tl, err := nccltest.MeasureWith(c.t, "all_reduce", c.algo, nccltest.Options{NVLS: true, SHARP: true}, cfg, taskgraph.Analytic)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		f := NewFrames(tl)
		u := make([]float64, len(tl.Links))
		mid := tl.End / 2
		f.addInNetworkLoads(u, mid)
		busiest := slices.Max(u)
		want := float64(tl.End-c.latency) / float64(tl.End)
		if math.Abs(busiest-want) > 1e-6 {
			t.Errorf("%s: busiest link's load %.6f; want (T−L)/T = %.6f", c.name, busiest, want)
		}
		var adding []string
		for j, sw := range tl.Switches {
			if f.adding(len(tl.GPUs)+j, mid) != "" && !slices.Contains(adding, sw.Kind) {
				adding = append(adding, sw.Kind)
			}
		}
		if got := strings.Join(adding, " "); got != c.adding {
			t.Errorf("%s: the switches adding are of kinds %q; want %q", c.name, got, c.adding)
		}
		clear(u)
		if f.addInNetworkLoads(u, tl.End); slices.Max(u) != 0 || f.adding(len(tl.GPUs), tl.End) != "" {
			t.Errorf("%s: links loaded or a switch adding after the run", c.name)
		}
	}
}

func build(t *testing.T, spec cluster.Spec) *cluster.Built {
	t.Helper()
	b, err := cluster.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
