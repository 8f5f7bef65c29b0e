package engine

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"paraplay/sim/units"
)

// TestEventsFireInTimeThenScheduleOrder: events scheduled while
// others fire, at random delays (many of them equal, some far apart),
// fire as a stable sort of (time, scheduling order) would have them.
func TestEventsFireInTimeThenScheduleOrder(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxDelay int64
	}{{"ties", 3}, {"near", 1000}, {"far", 1 << 40}} {
		rng := rand.New(rand.NewPCG(7, uint64(tc.maxDelay)))
		var e Engine
		type rec struct {
			at  units.Time
			seq int
		}
		var want, got []rec
		seq := 0
		var schedule func(n int)
		schedule = func(n int) {
			for range n {
				at := e.Now() + units.Time(rng.Int64N(tc.maxDelay))
				s := seq
				seq++
				want = append(want, rec{at, s})
				e.At(at, func() {
					got = append(got, rec{e.Now(), s})
					if seq < 20000 {
						schedule(rng.IntN(3))
					}
				})
			}
		}
		schedule(500)
		e.Run()
		slices.SortStableFunc(want, func(a, b rec) int { return cmp.Compare(a.at, b.at) })
		if len(got) != len(want) {
			t.Fatalf("%s: %d events fired, want %d", tc.name, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: event %d is %+v, want %+v", tc.name, i, got[i], want[i])
			}
		}
		if e.Pending() != 0 {
			t.Errorf("%s: Pending() = %d after Run, want 0", tc.name, e.Pending())
		}
	}
}
