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
	inOrder := len(tl.Transfers) > 0 && tl.Transfers[0].Start >= 0
	for i := 1; i < len(tl.Transfers); i++ {
		inOrder = inOrder && tl.Transfers[i].Start >= tl.Transfers[i-1].Start
	}
	if inOrder {
		s.push(rateCursor{at: tl.Transfers[0].Start, piece: -1})
	} else {
		for i := range tl.Transfers {
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
	x := &s.tl.Transfers[i]
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
	s.push(rateCursor{at: changeAt(x, 0), tr: i})
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
		if next := int(c.tr) + 1; next < len(s.tl.Transfers) {
			s.push(rateCursor{at: s.tl.Transfers[next].Start, tr: int32(next), piece: -1})
		}
		return
	}
	x := &s.tl.Transfers[c.tr]
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
		s.push(rateCursor{at: changeAt(x, int(c.piece)), tr: c.tr, piece: c.piece, bytesPerSec: rate})
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
