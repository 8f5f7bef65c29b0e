//go:build !js

package timeline

import (
	"fmt"

	"paraplay/sim/chunks"
	"paraplay/sim/units"
)

// checkTransfersSplit is checkTransfers on n contiguous ranges of the
// messages, each on a goroutine of its own, with the same errors in the
// same order, the same last end and the same call on the sweep. Each
// range checks its messages and walks them for exclusiveLinks without
// knowing when the earlier ranges leave each link free (rangeWalk); the
// walks are joined in range order (joinWalks). A message checkTransfer
// rejects unsettles the sequential walk, so the ranges walk every
// message whatever its check says, and the sweep runs when any range
// found an error or the joined walk does not settle.
func (tl *Timeline) checkTransfersSplit(n int) (last units.Time, errs []error) {
	last, errs, settled := tl.splitRanges(n)
	if len(errs) > 0 || !settled {
		errs = append(errs, tl.checkCapacity()...)
	}
	return last, errs
}

// splitRanges is checkTransfersSplit before the sweep: the last end, the
// messages' errors, and whether the exclusive-links walk settles the run.
func (tl *Timeline) splitRanges(n int) (last units.Time, errs []error, settled bool) {
	xs := &tl.Transfers
	routes := make([]routeCheck, len(xs.paths)) // followed up front: the ranges share them, read only
	chunks.Ranges(len(xs.paths), n, func(_, lo, hi int) {
		for p := lo; p < hi; p++ {
			routes[p] = tl.follow(xs.paths[p])
		}
	})
	limit := newExclusiveLinks(tl).limit
	parts := make([]rangeCheck, n)
	chunks.Ranges(xs.Len(), n, func(k, lo, hi int) { parts[k] = tl.checkRange(lo, hi, routes, limit) })
	for _, p := range parts {
		last = max(last, p.last)
		errs = append(errs, p.errs...)
	}
	return last, errs, joinWalks(parts, len(tl.Links))
}

// rangeCheck is what checking a range of the messages found.
type rangeCheck struct {
	last units.Time // the last end
	errs []error
	walk rangeWalk
}

// checkRange checks messages lo..hi−1 as checkTransfers does, given
// every path followed, and walks them.
func (tl *Timeline) checkRange(lo, hi int, routes []routeCheck, limit []float64) (c rangeCheck) {
	xs := &tl.Transfers
	c.walk = rangeWalk{exclusiveLinks: exclusiveLinks{free: make([]units.Time, len(limit)), limit: limit, settled: true},
		first: make([]units.Time, len(limit)), used: make([]bool, len(limit))}
	for i := lo; i < hi; i++ {
		r := &xs.recs[i]
		if r.route < 0 || !tl.recordOK(xs, r, routes) {
			x := xs.At(i)
			if err := tl.checkTransfer(&x); err != nil {
				c.errs = append(c.errs, fmt.Errorf("transfers[%d]: %v", i, err))
			}
			c.last = max(c.last, x.End)
			c.walk.add(x.Start, x.End, x.Path, x.Rates)
			continue
		}
		c.last = max(c.last, r.end)
		c.walk.add(r.start, r.end, xs.paths[r.route], xs.rates[r.rates:r.rates+max(r.nrates, 0)])
	}
	return c
}

// rangeWalk is exclusiveLinks over one range of the messages, which does
// not know the earlier ranges: it checks its first message's start and
// the start of its first message on each link when the walks are joined,
// and the rest as exclusiveLinks does.
type rangeWalk struct {
	exclusiveLinks              // free: by link, the end of the range's last message on it
	first          []units.Time // by link: the start of the range's first message on it
	used           []bool       // by link: whether a message of the range crosses it
	start          units.Time   // the range's first start
	any            bool         // whether the range has a message
}

// add walks the range's next message (exclusiveLinks.add).
func (w *rangeWalk) add(start, end units.Time, path []int, rates []Rate) {
	if !w.settled {
		return
	}
	if !w.any {
		w.any, w.start = true, start
	} else if start < w.prev {
		w.settled = false
		return
	}
	w.prev = start
	peak := peakRate(rates)
	for _, id := range path {
		if id < 0 || id >= len(w.free) || (w.used[id] && start < w.free[id]) || peak > w.limit[id] {
			w.settled = false
			return
		}
		if !w.used[id] {
			w.used[id], w.first[id] = true, start
		}
		w.free[id] = end
	}
}

// joinWalks reports whether the walks of ranges settle the run walked as
// one, in order: each settles, starts no earlier than the last start
// before it (0 for the first), and starts on each link no earlier than
// the end of the last message the earlier ranges sent on it (0 when none
// did).
func joinWalks(ranges []rangeCheck, links int) bool {
	free := make([]units.Time, links)
	var prev units.Time
	for k := range ranges {
		w := &ranges[k].walk
		if !w.settled {
			return false
		}
		if !w.any {
			continue
		}
		if w.start < prev {
			return false
		}
		prev = w.prev
		for id, used := range w.used {
			if used {
				if w.first[id] < free[id] {
					return false
				}
				free[id] = w.free[id]
			}
		}
	}
	return true
}
