package scene

import (
	"slices"
	"sort"

	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// liveIndex answers "which transfers are in flight at t" without scanning
// all of them: a 512-GPU ring all-reduce records half a million transfers,
// of which a frame shows a few hundred. The run's time is cut into equal
// buckets about as wide as a typical transfer; each bucket lists, in index
// order, the transfers that overlap it. A transfer that would overlap more
// than maxBuckets buckets goes on a short list checked at every instant
// instead, which bounds the index at maxBuckets entries per transfer.
type liveIndex struct {
	width  units.Time // bucket width; 0 when the index is empty
	offset []int32    // bucket k holds entries[offset[k]:offset[k+1]]
	entry  []int32
	long   []int32
}

const (
	maxBuckets  = 4       // buckets a transfer may span before it counts as long
	bucketLimit = 1 << 16 // at most this many buckets
)

// newLiveIndex indexes tl's transfers.
func newLiveIndex(tl *timeline.Timeline) liveIndex {
	return newIntervalIndex(tl.Transfers.Len(), tl.End, func(i int) (units.Time, units.Time) {
		return tl.Transfers.Interval(i)
	})
}

// newSpanIndex indexes tl's spans the same way.
func newSpanIndex(tl *timeline.Timeline) liveIndex {
	return newIntervalIndex(len(tl.Spans), tl.End, func(i int) (units.Time, units.Time) {
		return tl.Spans[i].Start, tl.Spans[i].End
	})
}

// newIntervalIndex indexes n intervals [start, end) of a run of length end.
func newIntervalIndex(n int, end units.Time, interval func(int) (units.Time, units.Time)) liveIndex {
	if n == 0 || end <= 0 {
		return liveIndex{}
	}
	// Bucket width: the median duration, so that a typical interval falls
	// in one or two buckets.
	durs := make([]units.Time, n)
	for i := range n {
		s, e := interval(i)
		durs[i] = max(e-s, 1)
	}
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	width := max(durs[n/2], end/bucketLimit+1)
	buckets := int(end/width) + 1
	ix := liveIndex{width: width, offset: make([]int32, buckets+1)}
	span := func(i int) (lo, hi int, ok bool) {
		s, e := interval(i)
		if e <= s || e <= 0 {
			return 0, 0, false // never live
		}
		lo = int(min(max(s, 0)/width, units.Time(buckets-1)))
		hi = int(min((e-1)/width, units.Time(buckets-1)))
		return lo, hi, true
	}
	// Two passes: count per bucket, then fill, so entries stay in index order.
	for i := range n {
		lo, hi, ok := span(i)
		if !ok || hi-lo >= maxBuckets {
			continue
		}
		for k := lo; k <= hi; k++ {
			ix.offset[k+1]++
		}
	}
	for k := 1; k <= buckets; k++ {
		ix.offset[k] += ix.offset[k-1]
	}
	ix.entry = make([]int32, ix.offset[buckets])
	fill := slices.Clone(ix.offset[:buckets])
	for i := range n {
		lo, hi, ok := span(i)
		if !ok {
			continue
		}
		if hi-lo >= maxBuckets {
			ix.long = append(ix.long, int32(i))
			continue
		}
		for k := lo; k <= hi; k++ {
			ix.entry[fill[k]] = int32(i)
			fill[k]++
		}
	}
	return ix
}

// at appends to buf the indices of the transfers with Start ≤ t < End, in
// increasing order (the order a scan of tl.Transfers meets them).
func (ix *liveIndex) at(tl *timeline.Timeline, t units.Time, buf []int32) []int32 {
	return ix.where(t, buf, func(i int32) bool {
		x := tl.Transfers.At(int(i))
		return x.Start <= t && t < x.End
	}, func() []int32 { return inFlight(tl, t) })
}

// spansAt is at for an index of tl's spans.
func (ix *liveIndex) spansAt(tl *timeline.Timeline, t units.Time, buf []int32) []int32 {
	return ix.where(t, buf, func(i int32) bool {
		s := &tl.Spans[i]
		return s.Start <= t && t < s.End
	}, func() []int32 { return spansLive(tl, t) })
}

// where appends the indexed items for which live holds at t, ascending;
// scan answers for instants outside the run.
func (ix *liveIndex) where(t units.Time, buf []int32, live func(int32) bool, scan func() []int32) []int32 {
	buf = buf[:0]
	if ix.width <= 0 {
		return buf
	}
	if t < 0 || int(t/ix.width) >= len(ix.offset)-1 {
		// Outside the run (frames clamp t into it, so this is rare): scan.
		return append(buf, scan()...)
	}
	k := int(t / ix.width)
	for _, i := range ix.entry[ix.offset[k]:ix.offset[k+1]] {
		if live(i) {
			buf = append(buf, i)
		}
	}
	n := len(buf)
	for _, i := range ix.long {
		if live(i) {
			buf = append(buf, i)
		}
	}
	if n > 0 && n < len(buf) {
		slices.Sort(buf) // merge the bucket's and the long list's
	}
	return buf
}

// inFlight lists the transfers in flight at t by scanning them all: what
// the index answers, for callers without a Frames (and for the tests).
func inFlight(tl *timeline.Timeline, t units.Time) []int32 {
	var out []int32
	for i := range tl.Transfers.Len() {
		if start, end := tl.Transfers.Interval(i); start <= t && t < end {
			out = append(out, int32(i))
		}
	}
	return out
}

// spansLive lists the spans with Start ≤ t < End by scanning them all.
func spansLive(tl *timeline.Timeline, t units.Time) []int32 {
	var out []int32
	for i := range tl.Spans {
		if s := &tl.Spans[i]; s.Start <= t && t < s.End {
			out = append(out, int32(i))
		}
	}
	return out
}
