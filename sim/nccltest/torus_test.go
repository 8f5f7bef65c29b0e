package nccltest

import (
	"fmt"
	"math"
	"testing"

	"paraplay/sim/collective"
	"paraplay/sim/taskgraph"
	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// TestTorusClosedForms runs the torus all-gather, reduce-scatter and
// all-reduce over one, two and three axes, with and without wraparound,
// every message on the ICI links of a torus (detailed fidelity), and
// holds each to collective.TorusTime within 0.5%.
func TestTorusClosedForms(t *testing.T) {
	const alpha, bw = units.Microsecond, 45 * units.GBps
	type shape struct {
		dims [3]int
		axes [3]bool
	}
	shapes := []shape{
		{[3]int{3, 1, 1}, [3]bool{}}, {[3]int{4, 1, 1}, [3]bool{}}, {[3]int{5, 1, 1}, [3]bool{}}, {[3]int{8, 1, 1}, [3]bool{}}, {[3]int{16, 1, 1}, [3]bool{}},
		{[3]int{4, 4, 1}, [3]bool{true}}, {[3]int{8, 4, 1}, [3]bool{false, true}},
		{[3]int{3, 3, 1}, [3]bool{}}, {[3]int{4, 4, 1}, [3]bool{}}, {[3]int{8, 8, 1}, [3]bool{}}, {[3]int{4, 8, 1}, [3]bool{}},
		{[3]int{3, 3, 3}, [3]bool{}}, {[3]int{4, 4, 4}, [3]bool{}}, {[3]int{4, 4, 8}, [3]bool{}}, {[3]int{4, 4, 4}, [3]bool{false, true, true}},
	}
	for _, sh := range shapes {
		for _, wrap := range []bool{true, false} {
			var w [3]bool
			for a, n := range sh.dims {
				w[a] = wrap && n >= 3
			}
			tor := topo.Torus{Dims: sh.dims, Wrap: w, Host: [3]int{1, 1, 1}, Slices: 1}
			tp, err := topo.BuildTorus(tor, topo.TorusPorts{ICI: topo.Port{Bandwidth: bw, Latency: alpha, Kind: "ici"}})
			if err != nil {
				t.Fatal(err)
			}
			g := collective.Grid{Dims: sh.dims, Wrap: w, Axes: sh.axes}
			for _, op := range []collective.Op{collective.OpAllGather, collective.OpReduceScatter, collective.OpAllReduce} {
				for _, s := range []units.Bytes{8 * units.MiB, 12345} {
					name := fmt.Sprintf("%v/axes%v/wrap=%v/%s/%d", sh.dims, sh.axes, wrap, op, s)
					sch, err := collective.TorusSchedule(op, g, s)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					tl, err := Collective(tp, sch, taskgraph.Identity(tor.Chips()), name)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got := tl.Collectives[0].End - tl.Collectives[0].Start
					want := collective.TorusTime(string(op), g, s, alpha, bw)
					if e := float64(got)/1e9/want - 1; math.Abs(e) > 0.005 {
						t.Errorf("%s: simulated %v, closed form %.4gµs (%+.2f%%)", name, got, want*1e6, 100*e)
					}
				}
			}
		}
	}
}
