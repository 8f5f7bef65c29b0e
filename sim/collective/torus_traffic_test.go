//go:build !js

package collective

import (
	"math"
	"testing"

	"paraplay/sim/units"
)

// TestTorusAxisBytes holds the closed form of each axis's traffic to the
// schedule: the bytes of TorusSchedule's transfers between chips that
// differ along each axis, over the chips, on every grid of torusGrids
// (rings and lines, one to three axes) and each op.
func TestTorusAxisBytes(t *testing.T) {
	for _, g := range torusGrids() {
		for _, op := range []Op{OpAllGather, OpReduceScatter, OpAllReduce} {
			const s = units.Bytes(1 << 20)
			sch, err := TorusSchedule(op, g, s)
			if err != nil {
				t.Fatalf("%v %s: %v", g, op, err)
			}
			var got [3]float64
			for _, tr := range sch.Transfers {
				for a := range got {
					if coord(g, tr.Src, a) != coord(g, tr.Dst, a) {
						got[a] += float64(tr.Bytes) / float64(g.chips())
					}
				}
			}
			want := TorusAxisBytes(op, g, s)
			for a := range got {
				if math.Abs(got[a]-want[a]) > 1e-6*float64(s) {
					t.Errorf("%v %s: axis %c carries %.1f B a chip in the schedule; the closed form says %.1f", g, op, "xyz"[a], got[a], want[a])
				}
			}
		}
	}
}
