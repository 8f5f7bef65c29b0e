//go:build !js

package training

import (
	"math/rand/v2"
	"testing"

	"paraplay/sim/pipeline"
)

// TestInFlightPeakIsTheWalk: on every schedule New builds, the largest
// Σ count × held over a device's kept in-flight vectors equals the peak of
// the walk through its ops (F adds its chunk's bytes, B gives them back),
// for random non-negative bytes per chunk.
func TestInFlightPeakIsTheWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 70))
	for _, name := range pipeline.Names() {
		for _, c := range [][3]int{{2, 4, 1}, {4, 8, 2}, {4, 16, 4}, {8, 8, 2}, {3, 7, 1}} {
			sch, err := pipeline.New(name, c[0], c[1], c[2])
			if err != nil {
				continue
			}
			vecs := heldAtForwards(sch)
			for range 20 {
				held := make([]float64, sch.Chunks)
				for i := range held {
					held[i] = float64(rng.IntN(1 << 20))
				}
				for d, order := range sch.Order {
					var bytes, walk, fast float64
					for _, o := range order {
						switch o.Kind {
						case pipeline.F:
							bytes += held[o.Chunk]
							walk = max(walk, bytes)
						case pipeline.B:
							bytes -= held[o.Chunk]
						}
					}
					for _, v := range vecs[d] {
						var b float64
						for ch, n := range v {
							b += n * held[ch]
						}
						fast = max(fast, b)
					}
					if fast != walk {
						t.Fatalf("%s p%d m%d v%d device %d: in-flight peak %v, walk %v", name, c[0], c[1], c[2], d, fast, walk)
					}
				}
			}
		}
	}
}
