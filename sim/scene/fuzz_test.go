package scene

import (
	"bytes"
	"testing"

	"paraplay/sim/units"
)

// FuzzBuild checks that any instant, canvas size and ring size gives a
// frame with unique IDs that encodes to SVG without error.
func FuzzBuild(f *testing.F) {
	f.Add(4, int64(6_250_000), 960.0, 600.0)
	f.Add(0, int64(-1), 0.0, 0.0)
	f.Add(64, int64(1)<<62, 64.0, 16384.0)
	f.Fuzz(func(t *testing.T, n int, at int64, w, h float64) {
		n = ((n % 65) + 65) % 65
		dl := Build(ringTimeline(n), units.Time(at), Options{Width: w, Height: h})
		seen := map[string]bool{}
		for _, it := range dl.Items {
			if seen[it.ID] {
				t.Fatalf("duplicate ID %q", it.ID)
			}
			seen[it.ID] = true
		}
		if err := WriteSVG(&bytes.Buffer{}, dl); err != nil {
			t.Fatalf("WriteSVG: %v", err)
		}
	})
}
