package timeline

import (
	"fmt"

	"paraplay/sim/units"
)

// checkCapacity sweeps the run in time order: at no instant may the
// messages crossing a link send faster than its bandwidth. A message's
// rate is a sequence of pieces in time order, so the sweep keeps one
// cursor per message in flight (a heap ordered by the time of its next
// rate change) and the current total rate of every link; it checks a
// link's total once all the changes of an instant are applied, which is
// the peak of that instant (an ending piece never lifts a total). Memory
// grows with the links and the messages in flight, not with the run: a
// 1,024-GPU ring all-reduce has 4 million messages, never 3,000 at once.
// Transfers whose rates checkTransfer rejects are left out: the timeline
// already fails.
func (tl *Timeline) checkCapacity() []error {
	s := capacitySweep{tl: tl, total: make([]float64, len(tl.Links)), over: make([]overload, len(tl.Links))}
	// Transfers come in order of start from every executor; out of order
	// (a timeline made by hand), all are in flight from the outset.
	inOrder := true
	for i := 1; i < len(tl.Transfers); i++ {
		inOrder = inOrder && tl.Transfers[i].Start >= tl.Transfers[i-1].Start
	}
	next := 0 // the next transfer not yet in flight
	for next < len(tl.Transfers) || len(s.heap) > 0 {
		// Every transfer starting by the next change is in flight first:
		// its own changes come no earlier than its start.
		for next < len(tl.Transfers) && (!inOrder || len(s.heap) == 0 || tl.Transfers[next].Start <= s.heap[0].at) {
			s.enter(int32(next))
			next++
		}
		if len(s.heap) > 0 {
			s.instant(s.heap[0].at)
		}
	}
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
	heap    []rateCursor
	total   []float64  // by link: the rate of the pieces in flight
	over    []overload // by link: the first instant it carried too much
	touched []int      // links whose total changed this instant
}

// rateCursor is a message in flight: piece is the index of its next rate
// change (len(Rates): its end), due at at; rate is what it adds to each
// link of its path until then.
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
	if x.End < at || x.End <= x.Start {
		return
	}
	s.push(rateCursor{at: s.changeAt(x, 0), tr: i})
}

// changeAt is when transfer x's piece k starts, its end for k = len(Rates).
func (s *capacitySweep) changeAt(x *Transfer, k int) units.Time {
	if k < len(x.Rates) {
		return x.Rates[k].At
	}
	return x.End
}

// instant applies every rate change due at t, then checks the links they
// touched.
func (s *capacitySweep) instant(t units.Time) {
	for len(s.heap) > 0 && s.heap[0].at == t {
		c := &s.heap[0]
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
		if int(c.piece) == len(x.Rates) {
			s.pop()
			continue
		}
		c.piece++
		c.bytesPerSec = rate
		c.at = s.changeAt(x, int(c.piece))
		s.down(0)
	}
	for _, id := range s.touched {
		limit := float64(s.tl.Links[id].Bandwidth) * (1 + 1e-9)
		if !s.over[id].found && s.total[id] > limit {
			s.over[id] = overload{true, t, s.total[id]}
		}
	}
	s.touched = s.touched[:0]
}

// before orders the heap by time. Changes of one instant are all applied
// before any link is checked, so their order does not matter; the heap's
// moves depend on the input alone, so the sweep is the same on every run.
func (s *capacitySweep) before(i, j int) bool { return s.heap[i].at < s.heap[j].at }

func (s *capacitySweep) push(c rateCursor) {
	s.heap = append(s.heap, c)
	for i := len(s.heap) - 1; i > 0; {
		up := (i - 1) / 2
		if !s.before(i, up) {
			break
		}
		s.heap[i], s.heap[up] = s.heap[up], s.heap[i]
		i = up
	}
}

func (s *capacitySweep) pop() {
	last := len(s.heap) - 1
	s.heap[0] = s.heap[last]
	s.heap = s.heap[:last]
	s.down(0)
}

// down moves the cursor at i down to its place.
func (s *capacitySweep) down(i int) {
	for {
		m, l := i, 2*i+1
		if l < len(s.heap) && s.before(l, m) {
			m = l
		}
		if l+1 < len(s.heap) && s.before(l+1, m) {
			m = l + 1
		}
		if m == i {
			return
		}
		s.heap[i], s.heap[m] = s.heap[m], s.heap[i]
		i = m
	}
}
