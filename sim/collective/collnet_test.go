package collective

import (
	"math"
	"testing"

	"paraplay/sim/units"
)

// TestCollNetTime checks CollNetTime against values worked by hand from
// its stages: the NIC term S/(g·B_nic) when the intra links are fast,
// the intra ring term 2(g−1)/g·S/B_intra when they are not, and the
// latencies 2(g−1)·α_intra + 2·α_net.
func TestCollNetTime(t *testing.T) {
	const s = units.GiB
	fast := Link{Alpha: units.Microsecond, Bandwidth: 1e15}
	nic := Link{Alpha: 5 * units.Microsecond, Bandwidth: 50 * units.GBps}
	cases := []struct {
		name     string
		nodes, g int
		intra    Link
		want     float64
	}{
		// 8 NICs of 50 GB/s carry S/8 each: 1 GiB / 400 GB/s, + 14 µs + 10 µs.
		{"nic-bound", 4, 8, fast, float64(s)/400e9 + 14e-6 + 10e-6},
		// NVLink of 100 GB/s: 2·7/8 · S / 100 GB/s dominates.
		{"intra-bound", 4, 8, Link{Alpha: units.Microsecond, Bandwidth: 100 * units.GBps}, 1.75*float64(s)/100e9 + 24e-6},
		// One GPU a node: the NIC alone, S/B_nic + 2α_net.
		{"one per node", 16, 1, fast, float64(s)/50e9 + 10e-6},
	}
	for _, tc := range cases {
		got := CollNetTime(tc.nodes, tc.g, s, tc.intra, nic)
		if math.Abs(got-tc.want)/tc.want > 1e-9 {
			t.Errorf("%s: got %.6g s, want %.6g s", tc.name, got, tc.want)
		}
	}
	// The node count does not enter the bandwidth term: 2 and 1,024 nodes
	// take the same time.
	if a, b := CollNetTime(2, 8, s, fast, nic), CollNetTime(1024, 8, s, fast, nic); a != b {
		t.Errorf("2 nodes %.6g s, 1,024 nodes %.6g s; want equal", a, b)
	}
}
