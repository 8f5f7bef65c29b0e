package topo

import (
	"fmt"
	"strings"
	"testing"

	"paraplay/sim/units"
)

var (
	nvlink = Port{Bandwidth: 450 * units.GBps, Latency: 3 * units.Microsecond, Kind: "nvlink"}
	ib     = Port{Bandwidth: 50 * units.GBps, Latency: 5 * units.Microsecond, Kind: "ib"}
)

func TestRing(t *testing.T) {
	for _, tc := range []struct{ n, links int }{{2, 2}, {3, 6}, {4, 8}, {16, 32}} {
		r := Ring(tc.n, 100*units.GBps, 5*units.Microsecond)
		if err := r.Validate(); err != nil {
			t.Fatalf("Ring(%d).Validate() = %v", tc.n, err)
		}
		if got := len(r.Links); got != tc.links {
			t.Errorf("Ring(%d) has %d links, want %d", tc.n, got, tc.links)
		}
		for i := 0; i < tc.n; i++ {
			for _, to := range []int{(i + 1) % tc.n, (i + tc.n - 1) % tc.n} {
				if _, ok := r.LinkBetween(i, to); !ok {
					t.Errorf("Ring(%d): no link %d→%d", tc.n, i, to)
				}
			}
		}
	}
}

func TestValidateRejects(t *testing.T) {
	bad := Ring(3, units.GBps, 0)
	bad.Links[0].To = bad.Links[0].From
	bad.Links[1].Bandwidth = 0
	bad.Links[2].From = 7
	if err := bad.Validate(); err == nil {
		t.Error("Validate() = nil for a broken topology")
	}
	if err := (&Topology{}).Validate(); err == nil {
		t.Error("Validate() = nil for an empty topology")
	}
}

// describe prints a route as vertex names.
func describe(t *Topology, path []int) string {
	if len(path) == 0 {
		return ""
	}
	names := []string{t.VertexName(t.Links[path[0]].From)}
	for _, id := range path {
		names = append(names, t.VertexName(t.Links[id].To))
	}
	return strings.Join(names, " → ")
}

func TestRoutes(t *testing.T) {
	rail, err := Cluster(ClusterConfig{Nodes: 2, PerNode: 4, Intra: nvlink, Inter: ib, Network: RailOptimized})
	if err != nil {
		t.Fatal(err)
	}
	fat, err := Cluster(ClusterConfig{Nodes: 8, PerNode: 2, Intra: nvlink, Inter: ib, Network: FatTree, NodesPerLeaf: 2, Oversubscription: 2})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		topo     *Topology
		src, dst int
		want     string
	}{
		{"ring neighbour", Ring(4, units.GBps, 0), 0, 1, "GPU 0 → GPU 1"},
		{"ring never forwards through a GPU", Ring(4, units.GBps, 0), 0, 2, ""},
		{"switch", Switched(4, nvlink), 1, 3, "GPU 1 → switch → GPU 3"},
		{"same node", rail, 0, 3, "GPU 0 → NVSwitch 0 → GPU 3"},
		{"same rail", rail, 1, 5, "GPU 1 → rail 1 → GPU 5"},
		{"across rails", rail, 0, 7, "GPU 0 → rail 0 → spine → rail 3 → GPU 7"},
		{"same leaf", fat, 0, 2, "GPU 0 → leaf 0 → GPU 2"},
		{"across leaves", fat, 0, 15, "GPU 0 → leaf 0 → spine → leaf 3 → GPU 15"},
		{"torus wraps", Torus2D(4, 4, nvlink), 0, 3, "GPU 0 → GPU 3"},
		{"pcie", PCIeNodes(2, 2, Port{Bandwidth: 32 * units.GBps}, Port{Bandwidth: 12.5 * units.GBps}), 0, 3, "GPU 0 → PCIe switch 0 → network → PCIe switch 1 → GPU 3"},
		{"wan", WAN(3, 2, Port{Bandwidth: 100 * units.GBps}, Port{Bandwidth: 1 * units.GBps, Latency: 20 * units.Millisecond}), 1, 4, "GPU 1 → site 0 → site 2 → GPU 4"},
	}
	for _, tc := range tests {
		if err := tc.topo.Validate(); err != nil {
			t.Fatalf("%s: Validate() = %v", tc.name, err)
		}
		path, err := NewRouter(tc.topo).Route(tc.src, tc.dst)
		got := describe(tc.topo, path)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("%s: Route(%d, %d) = %q, %v; want %q", tc.name, tc.src, tc.dst, got, err, tc.want)
		}
	}
}

func TestFatTreeOversubscription(t *testing.T) {
	fat, _ := Cluster(ClusterConfig{Nodes: 4, PerNode: 8, Intra: nvlink, Inter: ib, Network: FatTree, NodesPerLeaf: 2, Oversubscription: 4})
	for _, l := range fat.Links {
		from, to := fat.VertexName(l.From), fat.VertexName(l.To)
		if strings.HasPrefix(from, "leaf") && to == "spine" {
			// 2 nodes × 8 NICs × 50 GB/s down, a quarter of that up.
			if want := 2 * 8 * 50 * units.GBps / 4; l.Bandwidth != want {
				t.Errorf("%s→spine: %v, want %v", from, l.Bandwidth, want)
			}
		}
	}
}

func TestLatencyIsPaidOnce(t *testing.T) {
	rail, _ := Cluster(ClusterConfig{Nodes: 2, PerNode: 2, Intra: nvlink, Inter: ib, Network: RailOptimized})
	r := NewRouter(rail)
	for _, tc := range []struct {
		src, dst int
		want     units.Time
	}{{0, 1, nvlink.Latency}, {0, 2, ib.Latency}, {0, 3, ib.Latency}} {
		path, _ := r.Route(tc.src, tc.dst)
		var got units.Time
		for _, id := range path {
			got += rail.Links[id].Latency
		}
		if got != tc.want {
			t.Errorf("latency %d→%d = %v, want %v", tc.src, tc.dst, got, tc.want)
		}
	}
}

func TestClusterRejectsBadConfig(t *testing.T) {
	for _, c := range []ClusterConfig{
		{Nodes: 0, PerNode: 8, Intra: nvlink, Inter: ib, Network: RailOptimized},
		{Nodes: 2, PerNode: 8, Inter: ib, Network: RailOptimized},
		{Nodes: 2, PerNode: 8, Intra: nvlink, Inter: ib, Network: "mesh"},
		{Nodes: 2, PerNode: 8, Intra: nvlink, Inter: ib, Network: FatTree, Oversubscription: 0.5},
	} {
		if _, err := Cluster(c); err == nil {
			t.Errorf("Cluster(%+v) = nil error", c)
		}
	}
}

func ExampleRouter_Route() {
	c, _ := Cluster(ClusterConfig{Nodes: 2, PerNode: 8, Intra: nvlink, Inter: ib, Network: RailOptimized})
	path, _ := NewRouter(c).Route(3, 11)
	fmt.Println(describe(c, path))
	// Output: GPU 3 → rail 3 → GPU 11
}

func BenchmarkRouteCluster1024(b *testing.B) {
	c, _ := Cluster(ClusterConfig{Nodes: 128, PerNode: 8, Intra: nvlink, Inter: ib, Network: RailOptimized})
	for b.Loop() {
		r := NewRouter(c)
		for i := 0; i < 1024; i++ {
			r.Route(i, (i+1)%1024)
		}
	}
}

// TestMesh: n GPUs joined pairwise, no switch, each pair one cable each
// way, and the sizes a mesh cannot have refused.
func TestMesh(t *testing.T) {
	m, err := Mesh(8, Port{Bandwidth: 64e9})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := len(m.Links), 8*7; got != want || len(m.Switches) != 0 || !m.DirectPorts {
		t.Errorf("mesh of 8: %d links, %d switches, direct ports %v; want %d, 0, true", got, len(m.Switches), m.DirectPorts, want)
	}
	for _, n := range []int{0, MaxMeshGPUs + 1} {
		if _, err := Mesh(n, Port{Bandwidth: 1}); err == nil {
			t.Errorf("mesh of %d GPUs built", n)
		}
	}
}
