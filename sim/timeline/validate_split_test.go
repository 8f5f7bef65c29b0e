//go:build !js

package timeline

import (
	"fmt"
	"runtime"
	"testing"

	"paraplay/sim/chunks"
	"paraplay/sim/units"
)

// ringMessages is a ring on gpus GPUs behind one switch (link 2g from GPU
// g up, 2g+1 down to it, 1 GB/s each), steps steps of 1,000-byte messages
// of 1 µs, 2 µs apart: every link carries one message at a time, so the
// exclusive-links walk settles it. Message i is step i/gpus, GPU i%gpus
// sending to the next.
func ringMessages(gpus, steps int) (*Timeline, []Transfer) {
	tl := &Timeline{Collectives: []Collective{{Ranks: gpus}}}
	for g := range gpus {
		tl.GPUs = append(tl.GPUs, GPU{ID: g})
		tl.Collectives[0].GPUs = append(tl.Collectives[0].GPUs, g)
	}
	tl.Switches = []Switch{{ID: gpus}}
	for g := range gpus {
		tl.Links = append(tl.Links, Link{ID: 2 * g, From: g, To: gpus, Bandwidth: 1e9}, Link{ID: 2*g + 1, From: gpus, To: g, Bandwidth: 1e9})
	}
	var xs []Transfer
	for s := range steps {
		for g := range gpus {
			d, at := (g+1)%gpus, units.Time(2000*s)
			xs = append(xs, Transfer{Src: g, Dst: d, Bytes: 1000, Step: s, Path: []int{2 * g, 2*d + 1},
				Start: at, End: at + 1000, Rates: []Rate{{At: at, BytesPerSecond: 1e9}}})
		}
	}
	return tl, xs
}

// record lists xs in tl the way an executor does: one path per pair of
// GPUs (Route), each message left then arrived; every seventh message is
// appended with a path of its own instead.
func record(tl *Timeline, xs []Transfer) {
	t := TransfersOf()
	routes := map[[2]int]int32{}
	for i, x := range xs {
		if i%7 == 3 {
			t.Append(x)
			continue
		}
		k := t.Leave(x.Src, x.Dst, x.Bytes, x.Collective, x.Step, x.Chunk, x.Channel, x.Phase, x.Start)
		key := [2]int{x.Src, x.Dst}
		r, ok := routes[key]
		if !ok || x.Path == nil || len(x.Path) != 2 || x.Path[0] != 2*x.Src || x.Path[1] != 2*x.Dst+1 {
			r = t.Route(x.Path)
			if !ok && r >= 0 && len(x.Path) == 2 && x.Path[0] == 2*x.Src && x.Path[1] == 2*x.Dst+1 {
				routes[key] = r
			}
		}
		t.Arrive(k, r, x.End, x.Rates)
	}
	tl.Transfers = t
}

// TestCheckTransfersSplitAgrees: split into 2 to 64 ranges, the check of
// a 4,800-message ring reports exactly the sequential pass's errors, in
// its order, and the same last end, with no fault and with faults of
// every kind (a broken path, a bad interval, rates not carrying the
// bytes, an overlap that sends the run to the capacity sweep, with and
// without an overload, a message out of order, a wide message) in the
// first range, the last, either side of a range's bounds, and several at
// once.
func TestCheckTransfersSplitAgrees(t *testing.T) {
	const gpus, steps = 16, 300
	n := gpus * steps
	broken := func(x *Transfer) { x.Path = []int{x.Path[0], x.Path[1] ^ 2} }
	noPath := func(x *Transfer) { x.Path = nil }
	interval := func(x *Transfer) { x.End = x.Start }
	bytes := func(x *Transfer) { x.Bytes = 2000 }
	collective := func(x *Transfer) { x.Collective = -2 }
	overload := func(x *Transfer) { x.Start, x.Rates[0].At = x.Start-500, x.Start-500 } // out of order, overlapping the message before it on its links
	// The same at half the rate: the sweep runs and finds no overload.
	halves := func(x *Transfer) { x.Start, x.Rates = x.Start-1000, []Rate{{At: x.Start - 1000, BytesPerSecond: 5e8}} }
	late := func(x *Transfer) { x.Start, x.End, x.Rates[0].At = x.Start+500, x.End+500, x.Start+500 } // after the next one's start, on links free until then
	early := func(x *Transfer) { x.Start, x.Rates = -1000, []Rate{{At: -1000, BytesPerSecond: 5e8}} }
	linger := func(x *Transfer) { // holds its links into the next step's message on them, sending nothing
		x.End, x.Rates = x.End+1500, []Rate{{At: x.Start, BytesPerSecond: 1e9}, {At: x.Start + 1000, BytesPerSecond: 0}}
	}
	hog := func(x *Transfer) { x.End, x.Bytes = x.End+1500, 2500 } // sends into the next step's message on its links
	wide := func(x *Transfer) { x.Step = 1 << 40 }
	type fault struct {
		at  int
		how func(*Transfer)
	}
	bound := n * 3 / 8 // a range bound when split in 8
	for _, tc := range []struct {
		name          string
		faults        []fault
		errs, settles bool // whether the sequential pass finds errors; whether the walk settles the run
	}{
		{"none", nil, false, true},
		{"wide message", []fault{{n / 2, wide}}, false, true},
		{"broken path first", []fault{{0, broken}}, true, false},
		{"no path last", []fault{{n - 1, noPath}}, true, true},
		{"bad interval before a bound", []fault{{bound - 1, interval}}, true, true},
		{"bytes at a bound", []fault{{bound, bytes}}, true, true},
		{"collective after a bound", []fault{{bound + 1, collective}}, true, true},
		{"overload", []fault{{n/2 + 5, overload}}, true, false},
		{"overlap without overload", []fault{{n/3 + 2, halves}}, false, false},
		{"out of order", []fault{{n / 4, late}}, false, false},
		{"link held across a bound", []fault{{bound - 5, linger}}, false, false},
		{"link overloaded across a bound", []fault{{bound - 5, hog}}, true, false},
		{"link held into the last range", []fault{{n - gpus - 1, linger}}, false, false},
		{"out of order across a bound", []fault{{bound - 1, late}}, false, false},
		{"starts before 0", []fault{{0, early}}, true, false},
		{"overload last", []fault{{n - 1, overload}}, true, false},
		{"several", []fault{{1, interval}, {bound, broken}, {bound + 1, bytes}, {n / 2, wide}, {n - 2, overload}, {n - 1, collective}}, true, false},
	} {
		tl, xs := ringMessages(gpus, steps)
		for _, f := range tc.faults {
			f.how(&xs[f.at])
		}
		tl.End = xs[n-1].End
		record(tl, xs)
		wantLast, wantErrs := tl.checkTransfersInOrder()
		if (len(wantErrs) > 0) != tc.errs || sweepSettles(tl) != tc.settles {
			t.Errorf("%s: sequential errors %v, walk settles %t; want errors %t, settles %t", tc.name, wantErrs, sweepSettles(tl), tc.errs, tc.settles)
		}
		want := fmt.Sprint(wantErrs)
		for _, k := range []int{2, 3, 8, 64} {
			last, errs := tl.checkTransfersSplit(k)
			if got := fmt.Sprint(errs); got != want || last != wantLast || (errs == nil) != (wantErrs == nil) {
				t.Errorf("%s, %d ranges: %s, last %v\nwant %s, last %v", tc.name, k, got, last, want, wantLast)
			}
			if _, _, settled := tl.splitRanges(k); settled != tc.settles {
				t.Errorf("%s, %d ranges: the joined walks settle: %t, want %t", tc.name, k, settled, tc.settles)
			}
		}
	}
}

// TestCheckTransfersSplitsLargeRuns: a 67,200-message ring, broken at
// both ends, at the bounds of the ranges the host splits it into and by a
// link held into the next step, gets the one pass's errors from
// Validate.
func TestCheckTransfersSplitsLargeRuns(t *testing.T) {
	const gpus, steps = 16, 4200
	n := gpus * steps
	k := chunks.For(n)
	if runtime.GOMAXPROCS(0) > 1 && k == 1 {
		t.Fatalf("%d messages are not split on %d cores", n, runtime.GOMAXPROCS(0))
	}
	tl, xs := ringMessages(gpus, steps)
	for _, i := range []int{0, n/k - 1, n / k, n/k + 1, n - 1} {
		xs[i].Bytes = -5
	}
	xs[n/2].End, xs[n/2].Rates = xs[n/2].End+1500, append(xs[n/2].Rates, Rate{At: xs[n/2].End, BytesPerSecond: 0})
	tl.End = xs[n-1].End
	record(tl, xs)
	wantLast, wantErrs := tl.checkTransfersInOrder()
	if len(wantErrs) != 5 || wantLast != tl.End {
		t.Errorf("the one pass finds %d errors and ends at %v, want 5 and %v: %v", len(wantErrs), wantLast, tl.End, wantErrs)
	}
	last, errs := tl.checkTransfers()
	if got, want := fmt.Sprint(errs), fmt.Sprint(wantErrs); got != want || last != wantLast {
		t.Errorf("checkTransfers: %s, last %v\nwant %s, last %v", got, last, want, wantLast)
	}
	if _, _, settled := tl.splitRanges(k); settled {
		t.Errorf("the joined walks settle a run with a link held into the next step")
	}
}
