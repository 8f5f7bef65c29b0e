package topo

import "testing"

var testPorts = TorusPorts{ICI: Port{Bandwidth: 1e11, Latency: 1000}, PCIe: Port{Bandwidth: 1.6e10, Latency: 1000}, DCN: Port{Bandwidth: 2.5e10, Latency: 10000}}

// TestTorusLinks: a ring of n chips has n cables, a line n−1; a 2D and a
// 3D torus as many per axis; each cable is two links.
func TestTorusLinks(t *testing.T) {
	for _, c := range []struct {
		t      Torus
		cables int
	}{
		{Torus{Dims: [3]int{8, 1, 1}, Wrap: [3]bool{true}}, 8},
		{Torus{Dims: [3]int{8, 1, 1}}, 7},
		{Torus{Dims: [3]int{4, 4, 1}, Wrap: [3]bool{true, true}}, 32},
		{Torus{Dims: [3]int{4, 4, 1}}, 24},
		{Torus{Dims: [3]int{16, 8, 1}, Wrap: [3]bool{true, false}}, 16*8 + 16*7},
		{Torus{Dims: [3]int{4, 4, 4}, Wrap: [3]bool{true, true, true}}, 3 * 64},
		{Torus{Dims: [3]int{4, 4, 8}, Wrap: [3]bool{true, true, true}, Twisted: true}, 3 * 128},
	} {
		c.t.Host, c.t.Slices = [3]int{2, 2, 1}, 1
		tp, err := BuildTorus(c.t, testPorts)
		if err != nil {
			t.Fatal(err)
		}
		if err := tp.Validate(); err != nil {
			t.Fatal(err)
		}
		if got := len(tp.Links); got != 2*c.cables {
			t.Errorf("%v wrap %v: %d links, want %d", c.t.Dims, c.t.Wrap, got, 2*c.cables)
		}
	}
}

// TestTorusRoutes: chips relay along the shortest path, the wraparound
// halves the distance, and a host never relays between its own chips.
func TestTorusRoutes(t *testing.T) {
	for _, c := range []struct {
		t        Torus
		src, dst int
		hops     int
	}{
		{Torus{Dims: [3]int{16, 1, 1}, Wrap: [3]bool{true}}, 0, 15, 1},
		{Torus{Dims: [3]int{16, 1, 1}}, 0, 15, 15},
		{Torus{Dims: [3]int{4, 4, 1}}, 0, 15, 6}, // the book's (0,0)→(3,3): six hops
		{Torus{Dims: [3]int{4, 4, 1}, Slices: 2}, 0, 15, 6},
		{Torus{Dims: [3]int{4, 4, 1}, Slices: 2}, 0, 16, 4}, // PCIe, NIC, NIC, PCIe
	} {
		c.t.Host = [3]int{4, 2, 1}
		c.t.Slices = max(c.t.Slices, 1)
		tp, err := BuildTorus(c.t, testPorts)
		if err != nil {
			t.Fatal(err)
		}
		path, err := NewRouter(tp).Route(c.src, c.dst)
		if err != nil || len(path) != c.hops {
			t.Errorf("%v wrap %v, %d slices: %d→%d takes %d hops (%v), want %d", c.t.Dims, c.t.Wrap, c.t.Slices, c.src, c.dst, len(path), err, c.hops)
		}
		for _, id := range path[:len(path)-1] {
			if l := tp.Links[id]; !tp.IsGPU(l.To) && tp.Switches[l.To-len(tp.GPUs)].Kind == KindHost && c.src/16 == c.dst/16 {
				t.Errorf("%d→%d relays through %s", c.src, c.dst, tp.VertexName(l.To))
			}
		}
	}
}

// TestTorusHosts: a v5e-like 4x4 slice has two hosts of 4x2 chips.
func TestTorusHosts(t *testing.T) {
	tr := Torus{Dims: [3]int{4, 4, 1}, Host: [3]int{4, 2, 1}, Slices: 2}
	if got := tr.Hosts(); got != 4 {
		t.Errorf("hosts = %d, want 4", got)
	}
	for id, want := range map[int][2]int{0: {0, 0}, 7: {0, 7}, 8: {1, 0}, 16: {2, 0}, 31: {3, 7}} {
		h, l := tr.HostOf(id)
		if [2]int{h, l} != want {
			t.Errorf("chip %d on host %d as %d, want %v", id, h, l, want)
		}
	}
}

// TestTorusOrder: with Order the chip ids run through the axes in that
// order, the first fastest, and ID inverts Coord on every chip.
func TestTorusOrder(t *testing.T) {
	for _, o := range [][3]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0}, {2, 1, 0}} {
		tr := Torus{Dims: [3]int{2, 3, 4}, Host: [3]int{1, 1, 1}, Slices: 2, Order: o}
		if err := tr.Validate(); err != nil {
			t.Fatalf("order %v: %v", o, err)
		}
		for id := 0; id < 2*tr.Chips(); id++ {
			s, c := tr.Coord(id)
			if got := tr.ID(s, c); got != id {
				t.Errorf("order %v: ID(Coord(%d)) = %d", o, id, got)
			}
		}
		_, c := tr.Coord(1)
		var want [3]int
		want[o[0]] = 1
		if c != want {
			t.Errorf("order %v: chip 1 at %v; want %v (one step along axis %d)", o, c, want, o[0])
		}
	}
	if err := (Torus{Dims: [3]int{2, 3, 4}, Host: [3]int{1, 1, 1}, Slices: 1, Order: [3]int{0, 0, 3}}).Validate(); err == nil {
		t.Error("order {0 0 3}: no error; want one")
	}
}
