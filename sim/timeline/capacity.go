package timeline

import (
	"fmt"

	"paraplay/sim/radixheap"
	"paraplay/sim/units"
)

// checkCapacity sweeps the run in time order: at no instant may the
// messages crossing a link send faster than its bandwidth. A message's
// rate is a sequence of pieces in time order, so the sweep keeps one
// cursor per message in flight (in a queue ordered by the time of its next
// rate change) and the current total rate of every link; it checks a
// link's total once all the changes of an instant are applied, which is
// the peak of that instant (an ending piece never lifts a total). Memory
// grows with the links and the messages in flight, not with the run: a
// 1,024-GPU ring all-reduce has 4 million messages, never 10,000 at once.
// Transfers whose rates checkTransfer rejects are left out: the timeline
// already fails.
func (tl *Timeline) checkCapacity() []error {
	s := capacitySweep{tl: tl, total: make([]float64, len(tl.Links)), over: make([]overload, len(tl.Links))}
	// Transfers come in order of start from every executor: each enters
	// the sweep at its start (an entry cursor, piece −1, one at a time).
	// Out of order (a timeline made by hand), all enter at the outset.
	xs := &tl.Transfers
	start := func(i int) units.Time { st, _ := xs.Interval(i); return st }
	inOrder := xs.Len() > 0 && start(0) >= 0
	for i := 1; i < xs.Len(); i++ {
		inOrder = inOrder && start(i) >= start(i-1)
	}
	if inOrder {
		s.push(rateCursor{at: start(0), piece: -1})
	} else {
		for i := range xs.Len() {
			s.enter(int32(i))
		}
	}
	instant := units.Time(-1)
	for s.queue.Len() > 0 {
		_, c := s.queue.Pop()
		if c.at != instant {
			s.check(instant)
			instant = c.at
		}
		s.advance(c)
	}
	s.check(instant)
	var errs []error
	for id, o := range s.over {
		if o.found {
			errs = append(errs, fmt.Errorf("link %d over capacity at %v: %.4g B/s > %v", id, o.at, o.rate, tl.Links[id].Bandwidth))
		}
	}
	return errs
}

// capacitySweep is checkCapacity's state.
type capacitySweep struct {
	tl      *Timeline
	queue   radixheap.Queue[rateCursor] // the sweep's times never go back
	total   []float64                   // by link: the rate of the pieces in flight
	over    []overload                  // by link: the first instant it carried too much
	touched []int                       // links whose total changed this instant
}

// rateCursor is a message in flight: piece is the index of its next rate
// change (len(Rates): its end; −1: its entry into the sweep), due at at;
// bytesPerSec is what it adds to each link of its path until then.
type rateCursor struct {
	at          units.Time
	tr, piece   int32
	bytesPerSec float64
}

// overload is the first instant a link carried more than its bandwidth.
type overload struct {
	found bool
	at    units.Time
	rate  float64
}

// enter puts transfer i in flight, unless checkTransfer rejects its rates.
func (s *capacitySweep) enter(i int32) {
	x := s.tl.Transfers.At(int(i))
	at := x.Start
	for _, r := range x.Rates {
		if r.At < at || !(r.BytesPerSecond >= 0) {
			return
		}
		at = r.At
	}
	if x.Start < 0 || x.End < at || x.End <= x.Start {
		return
	}
	s.push(rateCursor{at: changeAt(&x, 0), tr: i})
}

// changeAt is when transfer x's piece k starts, its end for k = len(Rates).
func changeAt(x *Transfer, k int) units.Time {
	if k < len(x.Rates) {
		return x.Rates[k].At
	}
	return x.End
}

// advance applies the change c is due for and queues the cursor's next.
func (s *capacitySweep) advance(c rateCursor) {
	if c.piece < 0 { // an entry: the transfer, then the next one's entry
		s.enter(c.tr)
		if next := int(c.tr) + 1; next < s.tl.Transfers.Len() {
			st, _ := s.tl.Transfers.Interval(next)
			s.push(rateCursor{at: st, tr: int32(next), piece: -1})
		}
		return
	}
	x := s.tl.Transfers.At(int(c.tr))
	var rate float64
	if int(c.piece) < len(x.Rates) {
		rate = x.Rates[c.piece].BytesPerSecond
	}
	if d := rate - c.bytesPerSec; d != 0 {
		for _, id := range x.Path {
			if id >= 0 && id < len(s.total) {
				s.total[id] += d
				s.touched = append(s.touched, id)
			}
		}
	}
	if int(c.piece) < len(x.Rates) {
		c.piece++
		s.push(rateCursor{at: changeAt(&x, int(c.piece)), tr: c.tr, piece: c.piece, bytesPerSec: rate})
	}
}

// check notes the links that the changes of instant t lifted over their
// bandwidth.
func (s *capacitySweep) check(t units.Time) {
	for _, id := range s.touched {
		limit := float64(s.tl.Links[id].Bandwidth) * (1 + 1e-9)
		if !s.over[id].found && s.total[id] > limit {
			s.over[id] = overload{true, t, s.total[id]}
		}
	}
	s.touched = s.touched[:0]
}

// push queues c at its time.
func (s *capacitySweep) push(c rateCursor) { s.queue.Push(c.at, c) }

// exclusiveLinks settles the capacity check without the sweep in the
// common case of the single-port model, where every link carries one
// message at a time: walking the transfers in order of start, it keeps
// when each link is next free. While no message starts on a link before
// the ones already on it have ended, and no rate piece exceeds the
// bandwidth of a link of its path, no instant can overload a link, and
// settled stays true. Anything else (an overlap, a piece over a
// bandwidth, transfers out of order, a transfer checkTransfer rejects)
// leaves the question to checkCapacity's sweep, which reports the first
// overloaded instant exactly as before. A 1,024-GPU ring all-reduce
// skips the sweep's 13 million queue operations this way. A piece must
// stay a trillionth below the sweep's limit, so that the sweep's running
// float sums could not have found an overload the walk does not see.
type exclusiveLinks struct {
	free    []units.Time // by link: when its last message ends
	limit   []float64    // by link: the most a piece may send
	prev    units.Time   // the last transfer's start
	settled bool
}

func newExclusiveLinks(tl *Timeline) exclusiveLinks {
	e := exclusiveLinks{free: make([]units.Time, len(tl.Links)), limit: make([]float64, len(tl.Links)), settled: true}
	for id, l := range tl.Links {
		e.limit[id] = float64(l.Bandwidth) * (1 + 1e-9) * (1 - 1e-12)
	}
	return e
}

// add walks the next transfer (its interval, path and rates), which
// checkTransfer accepted (otherwise the caller unsettles the walk).
func (e *exclusiveLinks) add(start, end units.Time, path []int, rates []Rate) {
	if !e.settled {
		return
	}
	if start < e.prev {
		e.settled = false // out of order: the sweep sorts it out
		return
	}
	e.prev = start
	peak := peakRate(rates)
	for _, id := range path {
		if id < 0 || id >= len(e.free) || start < e.free[id] || peak > e.limit[id] {
			e.settled = false
			return
		}
		e.free[id] = end
	}
}

// peakRate is the highest of rates, 0 for none.
func peakRate(rates []Rate) float64 {
	peak := 0.0
	for _, r := range rates {
		peak = max(peak, r.BytesPerSecond)
	}
	return peak
}
