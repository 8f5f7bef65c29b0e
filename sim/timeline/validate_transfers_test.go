//go:build !js

package timeline

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"paraplay/sim/units"
)

// TestCheckTransfersAgreesWithCheckTransfer: on random messages over a
// three-GPU switch, many of them broken (endpoints, paths, intervals,
// sizes, collectives, rates, overlaps), the walk over records reports
// exactly the errors of checkTransfer on every Transfer followed by the
// capacity sweep, and the same last end, split into ranges or not.
func TestCheckTransfersAgreesWithCheckTransfer(t *testing.T) {
	tl := &Timeline{
		GPUs:        []GPU{{ID: 0}, {ID: 1}, {ID: 2}},
		Switches:    []Switch{{ID: 3}},
		Collectives: []Collective{{Ranks: 1, GPUs: []int{0}}},
	}
	for g := range 3 {
		tl.Links = append(tl.Links, Link{ID: 2 * g, From: g, To: 3, Bandwidth: 1e9}, Link{ID: 2*g + 1, From: 3, To: g, Bandwidth: 1e9})
	}
	rng := rand.New(rand.NewPCG(21, 5))
	pick := func(vs ...int) int { return vs[rng.IntN(len(vs))] }
	for run := range 400 {
		var xs []Transfer
		at := units.Time(0)
		for range 1 + rng.IntN(6) {
			at += units.Time(rng.IntN(3000))
			src, dst := rng.IntN(3), rng.IntN(3)
			x := Transfer{Src: pick(src, src, src, -1, 3), Dst: dst, Bytes: units.Bytes(pick(1000, 1000, 0)),
				Collective: pick(-1, 0, 0, 1, -2), Start: at, End: at + units.Time(pick(2000, 2000, 0, 500))}
			switch rng.IntN(6) {
			case 0:
			case 1:
				x.Path = []int{}
			case 2:
				x.Path = []int{2 * src, 2*dst + 1, 9}
			default:
				x.Path = []int{pick(2*src, 2*dst, 7), 2*dst + 1}
			}
			switch rng.IntN(4) {
			case 0:
			case 1:
				x.Rates = []Rate{{At: x.Start + 1000, BytesPerSecond: 1e9}}
			case 2:
				x.Rates = []Rate{{At: x.Start + 1000, BytesPerSecond: 2e9}, {At: x.Start + 1500, BytesPerSecond: 0}}
			default:
				x.Rates = []Rate{{At: x.Start + 1000, BytesPerSecond: float64(pick(1e9, -1))}}
			}
			xs = append(xs, x)
		}
		tl.Transfers = TransfersOf(xs...)
		last, errs := tl.checkTransfers()
		var wantLast units.Time
		var want []error
		for i, x := range xs {
			if err := tl.checkTransfer(&x); err != nil {
				want = append(want, fmt.Errorf("transfers[%d]: %v", i, err))
			}
			wantLast = max(wantLast, x.End)
		}
		if len(want) > 0 || !sweepSettles(tl) {
			want = append(want, tl.checkCapacity()...)
		}
		if got, w := fmt.Sprint(errs), fmt.Sprint(want); got != w || last != wantLast {
			t.Errorf("run %d: %s, last %v\nwant %s, last %v\n(%+v)", run, got, last, w, wantLast, xs)
		}
		for _, k := range []int{2, 7} { // split, with empty ranges when k exceeds the messages
			if last, errs := tl.checkTransfersSplit(k); fmt.Sprint(errs) != fmt.Sprint(want) || last != wantLast {
				t.Errorf("run %d in %d ranges: %v, last %v\nwant %v, last %v\n(%+v)", run, k, errs, last, want, wantLast, xs)
			}
			if _, _, settled := tl.splitRanges(k); settled != sweepSettles(tl) {
				t.Errorf("run %d in %d ranges: the joined walks settle: %t, want %t\n(%+v)", run, k, settled, !settled, xs)
			}
		}
	}
}

// sweepSettles reports whether exclusiveLinks settles tl's transfers,
// walked as Transfers.
func sweepSettles(tl *Timeline) bool {
	ex := newExclusiveLinks(tl)
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		ex.add(x.Start, x.End, x.Path, x.Rates)
	}
	return ex.settled
}
