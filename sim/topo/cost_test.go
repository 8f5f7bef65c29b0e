package topo

import (
	"testing"

	"paraplay/sim/units"
)

func TestPathCostAndBottleneck(t *testing.T) {
	cluster, err := Cluster(ClusterConfig{Nodes: 2, PerNode: 2, Intra: nvlink, Inter: ib, Network: RailOptimized})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		t     *Topology
		gpus  []int
		alpha units.Time
		bw    units.Bandwidth
	}{
		// One switch: the uplink's α once, the port's bandwidth.
		{"switched pair", Switched(4, nvlink), []int{0, 1}, nvlink.Latency, nvlink.Bandwidth},
		{"ring neighbours", Ring(4, 100*units.GBps, 5*units.Microsecond), []int{0, 1, 2, 3}, 5 * units.Microsecond, 100 * units.GBps},
		// Two GPUs of one node talk over NVLink...
		{"inside a node", cluster, []int{0, 1}, nvlink.Latency, nvlink.Bandwidth},
		// ...a group across nodes pays for the network hop.
		{"across nodes", cluster, []int{0, 1, 2, 3}, ib.Latency, ib.Bandwidth},
	} {
		alpha, bw, err := NewPaths(tc.t).Bottleneck(tc.gpus)
		if err != nil || alpha != tc.alpha || bw != tc.bw {
			t.Errorf("%s: Bottleneck(%v) = %v, %v, %v; want %v, %v", tc.name, tc.gpus, alpha, bw, err, tc.alpha, tc.bw)
		}
		a, b, err := NewRouter(tc.t).PathCost(tc.gpus[0], tc.gpus[1])
		if pa, pb, _ := NewPaths(tc.t).Cost(tc.gpus[0], tc.gpus[1]); err != nil || a != pa || b != pb {
			t.Errorf("%s: Router.PathCost = %v, %v, %v; Paths.Cost = %v, %v", tc.name, a, b, err, pa, pb)
		}
	}
	if _, _, err := NewPaths(Ring(4, units.GBps, 0)).Cost(0, 2); err == nil {
		t.Error("Cost across a ring's non-neighbours (GPUs do not forward) = nil error")
	}
}
