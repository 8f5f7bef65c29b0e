package timeline

import (
	"errors"
	"fmt"

	"paraplay/sim/units"
)

// Validate checks the invariants every run keeps, and returns every
// violation found. On the core every run shares:
//
//   - ids are indices: GPUs, switches and links are numbered in order, links
//     join two distinct vertices at a positive bandwidth and a latency not
//     below 0;
//   - spans lie on existing GPUs within [0, End] with positive length, come
//     sorted by start then GPU, and no GPU's compute stream is
//     double-booked; every backward span of a microbatch starts after the
//     last forward of that microbatch on its GPU ended; in a mirrored
//     timeline, only simulated GPUs have spans and each GPU mirrors a
//     simulated one;
//   - transfers run between two GPUs along a path of links, within [0, End]
//     with positive length and size, belong to an existing collective (or
//     none), and their rates carry exactly their bytes; no link carries
//     more than its bandwidth at any instant;
//   - collectives lie within [0, End] on existing GPUs, one per rank;
//   - fault and recovery states lie within [0, End] on an existing GPU (or
//     −1, a link state);
//   - the memory series (activations and KV cache) of GPU i is Memory[i],
//     in time order within [0, End], never negative, and Peak is at least
//     the static memory and every total the series reach;
//   - End is the end of the last span, transfer or collective.
//
// Then every record checks itself (Record.Check): the training record (its
// figures, its iterations and recovery steps inside the run), the
// Async, Split, RLHF and Inference records, and each of Extra in sorted key
// order; their errors are prefixed by the record's name.
func (tl *Timeline) Validate() error {
	errs := tl.checkVertices()
	last, spanErrs := tl.checkSpans()
	errs = append(errs, spanErrs...)
	errs = append(errs, tl.checkMirrors()...)
	xlast, xerrs := tl.checkTransfers()
	last = max(last, xlast)
	errs = append(errs, xerrs...)
	for i := range tl.Collectives {
		c := &tl.Collectives[i]
		if c.End < c.Start || c.Start < 0 || len(c.GPUs) != c.Ranks {
			errs = append(errs, fmt.Errorf("collectives[%d]: bad interval [%v, %v] or %d GPUs for %d ranks", i, c.Start, c.End, len(c.GPUs), c.Ranks))
		}
		for _, g := range c.GPUs {
			if !tl.isGPU(g) {
				errs = append(errs, fmt.Errorf("collectives[%d]: GPU %d does not exist", i, g))
			}
		}
		last = max(last, c.End)
	}
	errs = append(errs, tl.checkStates()...)
	errs = append(errs, tl.checkMemory()...)
	errs = append(errs, tl.checkRecords()...)
	if last != tl.End {
		errs = append(errs, fmt.Errorf("end is %v but the last operation ends at %v", tl.End, last))
	}
	return errors.Join(errs...)
}

// checkVertices checks that GPUs, switches and links are numbered by their
// index and that every link joins two vertices at a positive bandwidth.
func (tl *Timeline) checkVertices() []error {
	var errs []error
	for i, g := range tl.GPUs {
		if g.ID != i {
			errs = append(errs, fmt.Errorf("gpus[%d]: id %d", i, g.ID))
		}
	}
	for i, sw := range tl.Switches {
		if sw.ID != len(tl.GPUs)+i {
			errs = append(errs, fmt.Errorf("switches[%d]: id %d, want %d", i, sw.ID, len(tl.GPUs)+i))
		}
	}
	for i, l := range tl.Links {
		if l.ID != i || !tl.isVertex(l.From) || !tl.isVertex(l.To) || l.From == l.To || !(l.Bandwidth > 0) || l.Latency < 0 {
			errs = append(errs, fmt.Errorf("links[%d]: id %d joins %d→%d at %v", i, l.ID, l.From, l.To, l.Bandwidth))
		}
	}
	return errs
}

func (tl *Timeline) isGPU(id int) bool { return id >= 0 && id < len(tl.GPUs) }

func (tl *Timeline) isVertex(id int) bool { return id >= 0 && id < len(tl.GPUs)+len(tl.Switches) }

// checkTransfer checks one message: its path leads from Src to Dst over
// existing links, its interval and rates are sane, and its rates carry
// exactly its bytes (up to the nanosecond rounding of each rate change).
func (tl *Timeline) checkTransfer(x *Transfer) error {
	if !tl.isGPU(x.Src) || !tl.isGPU(x.Dst) || x.Src == x.Dst {
		return fmt.Errorf("%d→%d is not between two GPUs", x.Src, x.Dst)
	}
	if len(x.Path) == 0 {
		return fmt.Errorf("no path")
	}
	at := x.Src
	for _, id := range x.Path {
		if id < 0 || id >= len(tl.Links) {
			return fmt.Errorf("link %d does not exist", id)
		}
		l := &tl.Links[id]
		if l.From != at {
			return fmt.Errorf("path is broken at link %d (%d→%d), expected to leave vertex %d", id, l.From, l.To, at)
		}
		at = l.To
	}
	if at != x.Dst {
		return fmt.Errorf("path ends at vertex %d, not at GPU %d", at, x.Dst)
	}
	if x.Start < 0 || x.End <= x.Start || x.Bytes <= 0 {
		return fmt.Errorf("bad interval [%v, %v] or size %d", x.Start, x.End, x.Bytes)
	}
	if x.Collective < -1 || x.Collective >= len(tl.Collectives) {
		return fmt.Errorf("collective %d does not exist", x.Collective)
	}
	return checkRates(x.Start, x.End, x.Bytes, x.Rates)
}

// checkRates checks that a message's rates lie in order within [start,
// end] and carry its bytes (up to the nanosecond rounding of each rate
// change).
func checkRates(start, end units.Time, bytes units.Bytes, rates []Rate) error {
	var sent, slack float64
	for i, r := range rates {
		until := end
		if i+1 < len(rates) {
			until = rates[i+1].At
		}
		if r.At < start || until < r.At || !(r.BytesPerSecond >= 0) {
			return fmt.Errorf("rate %d (%v from %v) is outside [%v, %v] or out of order", i, r.BytesPerSecond, r.At, start, end)
		}
		sent += r.BytesPerSecond * (until - r.At).Seconds()
		slack += r.BytesPerSecond * 1e-9 // one nanosecond of rounding per piece
	}
	// Written so that NaN and infinities fail too.
	if d, tol := sent-float64(bytes), slack+1e-6*float64(bytes)+1; !(d <= tol && -d <= tol) {
		return fmt.Errorf("rates carry %.0f bytes, not %d", sent, bytes)
	}
	return nil
}
