package collective

import (
	"testing"

	"paraplay/sim/units"
)

// TestMessagesBoundsSchedules holds Messages to the schedules New builds:
// never fewer, and at most twice as many.
func TestMessagesBoundsSchedules(t *testing.T) {
	for _, o := range opAlgorithms {
		for _, algo := range append([]string{"auto"}, o.algos...) {
			for _, n := range []int{2, 3, 4, 5, 7, 8, 12, 16, 17, 32, 33, 64} {
				for _, k := range []int{1, 3} {
					cfg := Config{Ranks: n, Bytes: 64 * units.MiB, Chunks: k}
					if algo == "hierarchical" || (algo == "tree" && n%4 == 0) {
						cfg.Nodes, cfg.PerNode = 2, n/2
						if n%2 != 0 {
							continue
						}
					}
					if algo == "tree" && n%4 == 0 {
						cfg.Nodes, cfg.PerNode, cfg.Channels = n/4, 4, 4 // NCCLTree
					}
					sch, err := New(o.op, algo, cfg)
					if err != nil {
						continue // a size the algorithm does not take
					}
					got, want := Messages(o.op, algo, cfg), float64(len(sch.Transfers))
					if got < want || got > 2*want+2 {
						t.Errorf("Messages(%s, %s, n=%d, k=%d) = %g; the schedule has %g transfers", o.op, algo, n, k, got, want)
					}
				}
			}
		}
	}
}
