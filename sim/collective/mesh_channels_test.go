package collective

import (
	"fmt"
	"math"
	"testing"

	"paraplay/sim/units"
)

// TestMeshChannelsUseEveryCableOnce: under MeshChannelRing's layout the
// g patterns of a node use every cable of it once in each direction (the
// Walecki paths are edge-disjoint and cover the complete graph), each
// channel leaves a node from the GPU with the local index at which it
// enters the next (its rail), and the g patterns leave each node through
// g different GPUs (one channel per NIC).
func TestMeshChannelsUseEveryCableOnce(t *testing.T) {
	for _, g := range []int{2, 4, 6, 8} {
		for _, nodes := range []int{2, 3, 4} {
			n := nodes * g
			for k := range nodes {
				arcs := map[[2]int]int{}
				exits := map[int]bool{}
				for c := range g {
					o := meshChannelOrder(nodes, g, c)
					seen := map[int]bool{}
					for _, r := range o {
						seen[r] = true
					}
					if len(o) != n || len(seen) != n {
						t.Fatalf("g=%d nodes=%d channel %d: order %v is not a ring over %d ranks", g, nodes, c, o, n)
					}
					seg := o[k*g : (k+1)*g]
					for j := 0; j+1 < g; j++ {
						if seg[j]/g != k || seg[j+1]/g != k {
							t.Fatalf("g=%d channel %d: node %d's segment %v leaves the node", g, c, k, seg)
						}
						arcs[[2]int{seg[j], seg[j+1]}]++
					}
					exits[seg[g-1]%g] = true
					if k+1 < nodes && o[(k+1)*g]%g != seg[g-1]%g {
						t.Errorf("g=%d channel %d: leaves node %d from local %d, enters node %d at local %d", g, c, k, seg[g-1]%g, k+1, o[(k+1)*g]%g)
					}
				}
				if len(arcs) != g*(g-1) {
					t.Errorf("g=%d nodes=%d node %d: %d directed cables used, want all %d", g, nodes, k, len(arcs), g*(g-1))
				}
				for a, m := range arcs {
					if m != 1 {
						t.Errorf("g=%d node %d: cable %v carries %d patterns, want 1", g, k, a, m)
					}
				}
				if len(exits) != g {
					t.Errorf("g=%d node %d: the patterns leave from %d GPUs, want %d", g, k, len(exits), g)
				}
			}
		}
	}
}

// TestMeshChannelRingTimeMatchesExecution runs MeshChannelRing with a
// port per cable and per NIC (executeMesh) and checks
// MeshChannelRingTime within 0.5%, and that a ring's busbw on an
// MI300X-like mesh (7 cables of 48 GB/s, a 45 GB/s NIC) is NIC-bound, not
// one cable's.
func TestMeshChannelRingTimeMatchesExecution(t *testing.T) {
	cable := Link{Alpha: 2 * units.Microsecond, Bandwidth: 48 * units.GBps}
	nic := Link{Alpha: 4 * units.Microsecond, Bandwidth: 45 * units.GBps}
	for _, tc := range []struct {
		op                   Op
		nodes, per, channels int
		pieces               int
	}{
		{OpAllReduce, 2, 8, 8, 1}, {OpAllReduce, 2, 4, 8, 2}, {OpAllReduce, 2, 4, 3, 1},
		{OpAllReduce, 3, 6, 6, 1}, {OpReduceScatter, 2, 8, 8, 1}, {OpAllGather, 3, 4, 4, 1},
	} {
		for _, size := range []units.Bytes{units.KiB, 64 * units.MiB} {
			name := fmt.Sprintf("%s %d×%d c=%d k=%d S=%v", tc.op, tc.nodes, tc.per, tc.channels, tc.pieces, size)
			sch := MeshChannelRing(tc.op, tc.nodes, tc.per, size, tc.pieces, tc.channels)
			if err := sch.Validate(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := replay(sch); err != nil {
				t.Fatalf("%s: replay: %v", name, err)
			}
			got := MeshChannelRingTime(string(tc.op), tc.nodes, tc.per, tc.channels, tc.pieces, size, cable.Alpha, cable.Bandwidth, nic.Alpha, nic.Bandwidth)
			ran := executeMesh(sch, cable, nic, tc.per)
			if rel := math.Abs(ran-got) / ran; rel > 0.005 {
				t.Errorf("%s: execute %g s, MeshChannelRingTime %g s (%.2f%% apart)", name, ran, got, 100*rel)
			}
			cfg := Config{Nodes: tc.nodes, PerNode: tc.per, Channels: tc.channels, Chunks: tc.pieces, Bytes: size, Mesh: true}
			if m := float64(len(sch.Transfers)); tc.op == OpAllReduce && m > Messages("all_reduce", "ring", cfg) {
				t.Errorf("%s: %g transfers, Messages bounds %g", name, m, Messages("all_reduce", "ring", cfg))
			}
		}
	}
	const S = 1 << 30
	secs := MeshChannelRingTime("all_reduce", 2, 8, 8, 1, S, cable.Alpha, cable.Bandwidth, nic.Alpha, nic.Bandwidth)
	bus := S / secs * BusBWFactor("all_reduce", 16) / 1e9
	if want := 8 * 45.0; bus > want || bus < 0.95*want {
		t.Errorf("2×8 mesh, 8 channels: busbw %.1f GB/s, want just under eight NICs' %.0f", bus, want)
	}
	one := ChannelRingTime("all_reduce", 2, 8, 8, 1, S, cable.Alpha, cable.Bandwidth, nic.Alpha, nic.Bandwidth)
	if sw := S / one * BusBWFactor("all_reduce", 16) / 1e9; sw > 0.2*bus {
		t.Errorf("ChannelRing's shared cables give %.1f GB/s on a mesh; want far below the mesh layout's %.1f", sw, bus)
	}
}
