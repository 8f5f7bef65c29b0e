package timeline

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"paraplay/sim/units"
)

// capacityRun is a timeline of two links of 1 GB/s (0: GPU 0→1, 1:
// GPU 1→0) carrying the given transfers; only checkCapacity reads it.
func capacityRun(xs ...Transfer) *Timeline {
	return &Timeline{
		GPUs:      []GPU{{ID: 0}, {ID: 1}},
		Links:     []Link{{ID: 0, From: 0, To: 1, Bandwidth: 1e9}, {ID: 1, From: 1, To: 0, Bandwidth: 1e9}},
		Transfers: TransfersOf(xs...),
	}
}

// piece is a transfer on link at rate bps over [from, to).
func piece(link int, from, to units.Time, bps float64) Transfer {
	return Transfer{Path: []int{link}, Start: from, End: to, Rates: []Rate{{At: from, BytesPerSecond: bps}}}
}

func TestCheckCapacityCases(t *testing.T) {
	tests := []struct {
		name string
		xs   []Transfer
		want string // "" for no error
	}{
		{"one at full rate", []Transfer{piece(0, 0, 10, 1e9)}, ""},
		{"back to back", []Transfer{piece(0, 0, 10, 1e9), piece(0, 10, 20, 1e9)}, ""},
		{"halves share", []Transfer{piece(0, 0, 10, 5e8), piece(0, 0, 10, 5e8)}, ""},
		{"overlap by one", []Transfer{piece(0, 0, 10, 1e9), piece(0, 9, 20, 1e9)}, "link 0 over capacity at 9ns"},
		{"other links", []Transfer{piece(0, 0, 10, 1e9), piece(1, 0, 10, 1e9)}, ""},
		{"out of start order", []Transfer{piece(0, 5, 20, 6e8), piece(0, 0, 10, 6e8)}, "link 0 over capacity at 5ns"},
		{"second piece overloads", []Transfer{
			{Path: []int{1}, Start: 0, End: 30, Rates: []Rate{{At: 0, BytesPerSecond: 5e8}, {At: 10, BytesPerSecond: 1e9}}},
			piece(1, 0, 20, 5e8)}, "link 1 over capacity at 10ns"},
		{"a zero-length piece does not count", []Transfer{
			{Path: []int{0}, Start: 0, End: 30, Rates: []Rate{{At: 0, BytesPerSecond: 5e8}, {At: 10, BytesPerSecond: 9e9}, {At: 10, BytesPerSecond: 5e8}}},
			piece(0, 0, 30, 5e8)}, ""},
		{"stalled then sending", []Transfer{
			{Path: []int{0}, Start: 0, End: 20, Rates: []Rate{{At: 2, BytesPerSecond: 0}, {At: 10, BytesPerSecond: 1e9}}},
			piece(0, 0, 10, 1e9)}, ""},
	}
	for _, tc := range tests {
		errs := capacityRun(tc.xs...).checkCapacity()
		var got string
		if len(errs) > 0 {
			got = errs[0].Error()
		}
		if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: checkCapacity() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCheckCapacityAgreesWithBruteForce: random runs of overlapping
// multi-piece transfers, in order of start or not, against summing at every piece boundary the
// rates of the pieces that cover it (quadratic, independent of the
// sweep).
func TestCheckCapacityAgreesWithBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	for run := range 300 {
		var xs []Transfer
		for range 2 + rng.IntN(6) {
			start := units.Time(rng.IntN(20))
			x := Transfer{Path: []int{rng.IntN(2)}, Start: start}
			at := start
			for range 1 + rng.IntN(3) {
				at += units.Time(rng.IntN(4))
				x.Rates = append(x.Rates, Rate{At: at, BytesPerSecond: float64(rng.IntN(5)) * 2.5e8})
			}
			x.End = at + 1 + units.Time(rng.IntN(5))
			xs = append(xs, x)
		}
		if run%2 == 0 { // as executors write them; odd runs take the other path
			slices.SortStableFunc(xs, func(a, b Transfer) int { return cmp.Compare(a.Start, b.Start) })
		}
		want := bruteForceOver(xs)
		errs := capacityRun(xs...).checkCapacity()
		got := map[int]bool{}
		for _, err := range errs {
			got[int(err.Error()[5]-'0')] = true // "link N over capacity"
		}
		for link := range 2 {
			if got[link] != want[link] {
				t.Errorf("run %d, link %d: over capacity = %v, want %v (%+v)", run, link, got[link], want[link], xs)
			}
		}
	}
}

// bruteForceOver says which of links 0 and 1 carry more than 1 GB/s at
// some instant.
func bruteForceOver(xs []Transfer) [2]bool {
	var over [2]bool
	for _, y := range xs {
		for _, p := range y.Rates {
			t := p.At // totals only rise where a piece starts
			var sum [2]float64
			for _, x := range xs {
				for k, r := range x.Rates {
					until := x.End
					if k+1 < len(x.Rates) {
						until = x.Rates[k+1].At
					}
					if r.At <= t && t < until {
						sum[x.Path[0]] += r.BytesPerSecond
					}
				}
			}
			for l := range 2 {
				over[l] = over[l] || sum[l] > 1e9*(1+1e-9)
			}
		}
	}
	return over
}

// TestExclusiveLinksNeverSettleAnOverload: the walk that spares the
// sweep settles a run only if the brute force finds no link over its
// bandwidth, on random runs in order of start and out of it; and it does
// settle the single-port cases (one message at a time per link, at most
// the bandwidth).
func TestExclusiveLinksNeverSettleAnOverload(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	settled := 0
	for run := range 2000 {
		var xs []Transfer
		at := units.Time(0)
		for range 1 + rng.IntN(6) {
			if rng.IntN(3) > 0 {
				at += units.Time(rng.IntN(8)) // mostly in order of start
			} else {
				at = units.Time(rng.IntN(20))
			}
			x := Transfer{Path: []int{rng.IntN(2)}, Start: at}
			r := at
			for range 1 + rng.IntN(3) {
				r += units.Time(rng.IntN(4))
				x.Rates = append(x.Rates, Rate{At: r, BytesPerSecond: float64(rng.IntN(6)) * 2.5e8})
			}
			x.End = r + 1 + units.Time(rng.IntN(5))
			xs = append(xs, x)
		}
		tl := capacityRun(xs...)
		ex := newExclusiveLinks(tl)
		for i := range xs {
			ex.add(xs[i].Start, xs[i].End, xs[i].Path, xs[i].Rates)
		}
		if !ex.settled {
			continue
		}
		settled++
		if over := bruteForceOver(xs); over[0] || over[1] {
			t.Errorf("run %d: settled, but a link is over capacity (%+v)", run, xs)
		}
		if errs := tl.checkCapacity(); len(errs) > 0 {
			t.Errorf("run %d: settled, but the sweep finds %v", run, errs)
		}
	}
	if settled < 200 {
		t.Errorf("%d of 2000 runs settled without the sweep, want at least 200", settled)
	}
	for _, tc := range []struct {
		name string
		xs   []Transfer
		want bool
	}{
		{"back to back", []Transfer{piece(0, 0, 10, 1e9), piece(0, 10, 20, 1e9)}, true},
		{"two links", []Transfer{piece(0, 0, 10, 1e9), piece(1, 0, 10, 1e9)}, true},
		{"halves share", []Transfer{piece(0, 0, 10, 5e8), piece(0, 0, 10, 5e8)}, false},
		{"over the bandwidth", []Transfer{piece(0, 0, 10, 2e9)}, false},
		{"out of order", []Transfer{piece(0, 10, 20, 1e9), piece(1, 0, 10, 1e9)}, false},
	} {
		xs := tc.xs
		ex := newExclusiveLinks(capacityRun(xs...))
		for i := range xs {
			ex.add(xs[i].Start, xs[i].End, xs[i].Path, xs[i].Rates)
		}
		if ex.settled != tc.want {
			t.Errorf("%s: settled = %v, want %v", tc.name, ex.settled, tc.want)
		}
	}
}
