package collective

import (
	"fmt"
	"math"
	"testing"

	"paraplay/sim/units"
)

// TestTwoLevelTimeMatchesExecution runs the algorithms that have a
// two-level form on ranks with an NVLink-like port into their node and a
// slower NIC (executeNodes) and checks TwoLevelTime within 0.5%, and that
// with equal links it is Time.
func TestTwoLevelTimeMatchesExecution(t *testing.T) {
	intra := Link{Alpha: 2 * units.Microsecond, Bandwidth: 200 * units.GBps}
	inter := Link{Alpha: 5 * units.Microsecond, Bandwidth: 25 * units.GBps}
	for _, tc := range []struct {
		op, algo             string
		nodes, per, channels int
	}{
		{"all_reduce", "ring", 2, 8, 8},
		{"all_reduce", "ring", 4, 4, 4},
		{"all_reduce", "ring", 3, 4, 8},
		{"all_reduce", "ring", 2, 4, 2},
		{"reduce_scatter", "ring", 4, 8, 8},
		{"all_gather", "ring", 2, 8, 8},
		{"all_reduce", "hierarchical", 4, 4, 0},
		{"all_reduce", "hierarchical", 2, 8, 0},
		{"all_reduce", "recursive_doubling", 4, 4, 0},
		{"all_reduce", "recursive_doubling", 2, 8, 0},
		{"all_reduce", "halving_doubling", 4, 4, 0},
		{"all_reduce", "halving_doubling", 8, 2, 0},
	} {
		for _, size := range []units.Bytes{units.KiB, 64 * units.MiB} {
			cfg := Config{Nodes: tc.nodes, PerNode: tc.per, Channels: tc.channels, Bytes: size}
			name := fmt.Sprintf("%s/%s %d×%d c=%d S=%v", tc.op, tc.algo, tc.nodes, tc.per, tc.channels, size)
			got, ok := TwoLevelTime(tc.op, tc.algo, cfg, intra, inter)
			if !ok {
				t.Fatalf("%s: no two-level form", name)
			}
			sch, err := New(tc.op, tc.algo, cfg)
			if err != nil {
				t.Fatal(err)
			}
			ran := executeNodes(sch, intra, inter, tc.per)
			if rel := math.Abs(ran-got) / ran; rel > 0.005 {
				t.Errorf("%s: execute %g s, TwoLevelTime %g s (%.2f%% apart), want within 0.5%%", name, ran, got, 100*rel)
			}
			one, _ := TwoLevelTime(tc.op, tc.algo, cfg, inter, inter)
			want, err := Time(tc.op, tc.algo, cfg, inter.Alpha, inter.Bandwidth)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(one-want) > 1e-9*want {
				t.Errorf("%s: equal links give %g s, Time %g s", name, one, want)
			}
		}
	}
}

// TestAllToAllTwoLevelMatchesExecution: PXN's all-to-all on ranks with a
// port into their node and a NIC (executeNodes) takes what
// AllToAllPXNTime says, within 0.5%: its rounds pipeline NVLink gathers
// against NIC messages. (The pairwise exchange's two-level form is
// checked against the detailed executor, nccltest's
// TestAllToAllDetailedAgreesWithAnalytic: this test's stricter
// first-come-first-served ports stall its irregular NIC pattern, which
// taskgraph's ports do not.)
func TestAllToAllTwoLevelMatchesExecution(t *testing.T) {
	intra := Link{Alpha: 2 * units.Microsecond, Bandwidth: 200 * units.GBps}
	inter := Link{Alpha: 5 * units.Microsecond, Bandwidth: 25 * units.GBps}
	slow := Link{Alpha: 2 * units.Microsecond, Bandwidth: 20 * units.GBps} // NVLink slower than the NIC: the gathers bound PXN
	for _, algo := range []string{"pxn"} {
		for _, shape := range [][2]int{{2, 8}, {3, 4}, {4, 8}, {5, 2}, {2, 2}} {
			for _, in := range []Link{intra, slow} {
				for _, size := range []units.Bytes{units.KiB, 64 * units.MiB, 1000003} {
					cfg := Config{Nodes: shape[0], PerNode: shape[1], Bytes: size}
					name := fmt.Sprintf("all_to_all/%s %d×%d intra %v S=%v", algo, shape[0], shape[1], in.Bandwidth, size)
					got, ok := TwoLevelTime("all_to_all", algo, cfg, in, inter)
					if !ok {
						t.Fatalf("%s: no two-level form", name)
					}
					sch, err := New("all_to_all", algo, cfg)
					if err != nil {
						t.Fatal(err)
					}
					ran := executeNodes(sch, in, inter, shape[1])
					if rel := math.Abs(ran-got) / ran; rel > 0.005 {
						t.Errorf("%s: execute %g s, TwoLevelTime %g s (%.2f%% apart), want within 0.5%%", name, ran, got, 100*rel)
					}
				}
			}
		}
	}
}
