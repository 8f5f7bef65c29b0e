package scene

import (
	"slices"
	"testing"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// TestLiveIndexMatchesScan checks the indexes against a scan of every
// transfer and span, at every start and end (and a nanosecond either side) of a
// ring run and of a hand-made mix of short, long, empty and out-of-range
// transfers.
func TestLiveIndexMatchesScan(t *testing.T) {
	mixed := &timeline.Timeline{End: 100 * ms, GPUs: make([]timeline.GPU, 2)}
	for i := range 300 {
		start := units.Time(i) * ms / 3
		mixed.Transfers.Append(timeline.Transfer{Src: 0, Dst: 1, Start: start, End: start + ms/2})
	}
	for _, x := range []timeline.Transfer{
		{Start: 0, End: 100 * ms},        // the whole run: long
		{Start: 40 * ms, End: 40 * ms},   // empty: never in flight
		{Start: 90 * ms, End: 150 * ms},  // past the end
		{Start: 10 * ms, End: 60 * ms},   // long
		{Start: -5 * ms, End: 2 * ms},    // before the start
		{Start: 33 * ms, End: 33*ms + 1}, // one nanosecond
	} {
		mixed.Transfers.Append(x)
	}
	for name, tl := range map[string]*timeline.Timeline{"ring16": ringTimeline(16), "mixed": mixed} {
		ix, sx := newLiveIndex(tl), newSpanIndex(tl)
		var instants []units.Time
		for i := range tl.Transfers.Len() {
			x := tl.Transfers.At(i)
			instants = append(instants, x.Start-1, x.Start, x.Start+1, x.End-1, x.End, x.End+1)
		}
		instants = append(instants, 0, tl.End, tl.End+ms, -ms)
		var buf []int32
		for _, at := range instants {
			buf = ix.at(tl, at, buf)
			if want := inFlight(tl, at); !slices.Equal(buf, want) && !(len(buf) == 0 && len(want) == 0) {
				t.Fatalf("%s at %v: index gives %v, scan gives %v", name, at, buf, want)
			}
			got := sx.spansAt(tl, at, nil)
			if want := spansLive(tl, at); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("%s at %v: span index gives %v, scan gives %v", name, at, got, want)
			}
		}
	}
}

// TestLargeCollectiveSamplesRows checks that a run with more GPUs than
// maxRowsCollective shows every k-th GPU in the strip and says so.
func TestLargeCollectiveSamplesRows(t *testing.T) {
	for _, tc := range []struct {
		n, rows int
		note    string
	}{
		{64, 64, ""},
		{130, 44, "showing every 3rd GPU (44 of 130)"},
		{512, 64, "showing every 8th GPU (64 of 512)"},
	} {
		tl := &timeline.Timeline{End: ms, GPUs: make([]timeline.GPU, tc.n)}
		r := chooseRows(tl, false)
		if len(r.gpus) != tc.rows || r.note != tc.note {
			t.Errorf("%d GPUs: %d rows, note %q; want %d, %q", tc.n, len(r.gpus), r.note, tc.rows, tc.note)
		}
		for i, g := range r.gpus {
			if r.row[g] != i {
				t.Errorf("%d GPUs: GPU %d is on row %d, its row index says %d", tc.n, g, i, r.row[g])
			}
		}
	}
	for k, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 112: "112th"} {
		if got := ordinal(k); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", k, got, want)
		}
	}
}
