package radixheap

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"paraplay/sim/units"
)

// TestPopsInTimeThenPushOrder: values pushed between pops, never below
// the last time taken, at random delays (many equal, some far apart),
// come out as a stable sort by time would have them.
func TestPopsInTimeThenPushOrder(t *testing.T) {
	for _, tc := range []struct {
		name     string
		maxDelay int64
	}{{"ties", 3}, {"near", 1000}, {"far", 1 << 40}} {
		rng := rand.New(rand.NewPCG(11, uint64(tc.maxDelay)))
		type rec struct {
			at  units.Time
			seq int
		}
		var q Queue[int]
		var want, got []rec
		now, seq := units.Time(0), 0
		push := func(n int) {
			for range n {
				at := now + units.Time(rng.Int64N(tc.maxDelay))
				q.Push(at, seq)
				want = append(want, rec{at, seq})
				seq++
			}
		}
		push(500)
		for q.Len() > 0 {
			at, v := q.Pop()
			if at < now {
				t.Fatalf("%s: popped %v after %v", tc.name, at, now)
			}
			now = at
			got = append(got, rec{at, v})
			if seq < 20000 {
				push(rng.IntN(3))
			}
		}
		slices.SortStableFunc(want, func(a, b rec) int { return cmp.Compare(a.at, b.at) })
		if !slices.Equal(got, want) {
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s: value %d is %+v, want %+v", tc.name, i, got[i], want[i])
				}
			}
		}
	}
}

func ExampleQueue() {
	var q Queue[string]
	q.Push(30, "c")
	q.Push(10, "a")
	q.Push(10, "b")
	for q.Len() > 0 {
		at, v := q.Pop()
		fmt.Println(at, v)
	}
	// Output:
	// 10ns a
	// 10ns b
	// 30ns c
}
