package timeline

import (
	"errors"
	"fmt"
	"sort"

	"paraplay/sim/units"
)

// Validate checks the invariants every run keeps: ids are indices; every
// span and transfer lies within [0, End] with positive length; no GPU's
// compute stream and no link is double-booked; transfers travel along their
// link; every backward span of a microbatch starts after its forward ended;
// End is the end of the last operation. It returns every violation found.
func (tl *Timeline) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	for i, g := range tl.GPUs {
		if g.ID != i {
			bad("gpus[%d]: id %d", i, g.ID)
		}
	}
	for i, sw := range tl.Switches {
		if sw.ID != len(tl.GPUs)+i {
			bad("switches[%d]: id %d, want %d", i, sw.ID, len(tl.GPUs)+i)
		}
	}
	for i, l := range tl.Links {
		if l.ID != i || !tl.isVertex(l.From) || !tl.isVertex(l.To) || l.From == l.To || !(l.Bandwidth > 0) {
			bad("links[%d]: id %d joins %d→%d at %v", i, l.ID, l.From, l.To, l.Bandwidth)
		}
	}
	var last units.Time
	perGPU := make(map[int][]interval)
	forwardEnd := map[[3]int]units.Time{}
	for i, s := range tl.Spans {
		if !tl.isGPU(s.GPU) {
			bad("spans[%d]: GPU %d does not exist", i, s.GPU)
			continue
		}
		if s.Start < 0 || s.End <= s.Start {
			bad("spans[%d]: bad interval [%v, %v]", i, s.Start, s.End)
		}
		last = max(last, s.End)
		perGPU[s.GPU] = append(perGPU[s.GPU], interval{s.Start, s.End, i})
		if s.Kind == Forward {
			forwardEnd[[3]int{s.GPU, s.Iteration, s.Microbatch}] = s.End
		}
	}
	for i, s := range tl.Spans {
		if s.Kind != Backward {
			continue
		}
		fe, ok := forwardEnd[[3]int{s.GPU, s.Iteration, s.Microbatch}]
		if !ok || s.Start < fe {
			bad("spans[%d]: backward of microbatch %d on GPU %d starts at %v before its forward ended", i, s.Microbatch, s.GPU, s.Start)
		}
	}
	for i := range tl.Transfers {
		x := &tl.Transfers[i]
		if err := tl.checkTransfer(x); err != nil {
			bad("transfers[%d]: %v", i, err)
		}
		last = max(last, x.End)
	}
	errs = append(errs, tl.checkCapacity()...)
	for i, c := range tl.Collectives {
		if c.End < c.Start || c.Start < 0 || len(c.GPUs) != c.Ranks {
			bad("collectives[%d]: bad interval [%v, %v] or %d GPUs for %d ranks", i, c.Start, c.End, len(c.GPUs), c.Ranks)
		}
		for _, g := range c.GPUs {
			if !tl.isGPU(g) {
				bad("collectives[%d]: GPU %d does not exist", i, g)
			}
		}
		last = max(last, c.End)
	}
	errs = append(errs, overlaps("GPU", "spans", perGPU)...)
	errs = append(errs, tl.checkFaults()...)
	errs = append(errs, tl.validateAsync()...)
	errs = append(errs, tl.validateInference()...)
	if last != tl.End {
		bad("end is %v but the last operation ends at %v", tl.End, last)
	}
	return errors.Join(errs...)
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
		l := tl.Links[id]
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
	var sent, slack float64
	for i, r := range x.Rates {
		until := x.End
		if i+1 < len(x.Rates) {
			until = x.Rates[i+1].At
		}
		if r.At < x.Start || until < r.At || r.BytesPerSecond < 0 {
			return fmt.Errorf("rate %d (%v from %v) is outside [%v, %v] or out of order", i, r.BytesPerSecond, r.At, x.Start, x.End)
		}
		sent += r.BytesPerSecond * (until - r.At).Seconds()
		slack += r.BytesPerSecond * 1e-9 // one nanosecond of rounding per piece
	}
	if d := sent - float64(x.Bytes); d > slack+1e-6*float64(x.Bytes)+1 || -d > slack+1e-6*float64(x.Bytes)+1 {
		return fmt.Errorf("rates carry %.0f bytes, not %d", sent, x.Bytes)
	}
	return nil
}

// checkCapacity sweeps every link's rate pieces: at no instant may the
// messages crossing a link send faster than its bandwidth.
func (tl *Timeline) checkCapacity() []error {
	type change struct {
		at    units.Time
		delta float64
	}
	// Count first, so that every link's list is allocated once.
	sizes := make([]int, len(tl.Links))
	for _, x := range tl.Transfers {
		for _, id := range x.Path {
			if id >= 0 && id < len(sizes) {
				sizes[id] += 2 * len(x.Rates)
			}
		}
	}
	perLink := make([][]change, len(tl.Links))
	for id, n := range sizes {
		perLink[id] = make([]change, 0, n)
	}
	for _, x := range tl.Transfers {
		for i, r := range x.Rates {
			until := x.End
			if i+1 < len(x.Rates) {
				until = x.Rates[i+1].At
			}
			if r.BytesPerSecond == 0 || until <= r.At {
				continue
			}
			for _, id := range x.Path {
				if id >= 0 && id < len(tl.Links) {
					perLink[id] = append(perLink[id], change{r.At, r.BytesPerSecond}, change{until, -r.BytesPerSecond})
				}
			}
		}
	}
	var errs []error
	for id, cs := range perLink {
		sort.Slice(cs, func(i, j int) bool {
			if cs[i].at != cs[j].at {
				return cs[i].at < cs[j].at
			}
			return cs[i].delta < cs[j].delta // ends before starts
		})
		limit := float64(tl.Links[id].Bandwidth) * (1 + 1e-9)
		var sum float64
		for _, c := range cs {
			sum += c.delta
			if sum > limit {
				errs = append(errs, fmt.Errorf("link %d over capacity at %v: %.4g B/s > %v", id, c.at, sum, tl.Links[id].Bandwidth))
				break
			}
		}
	}
	return errs
}

type interval struct {
	start, end units.Time
	index      int
}

// overlaps reports resources whose intervals overlap: a resource runs one
// thing at a time.
func overlaps(resource, list string, byResource map[int][]interval) []error {
	keys := make([]int, 0, len(byResource))
	for k := range byResource {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var errs []error
	for _, k := range keys {
		iv := byResource[k]
		sort.Slice(iv, func(i, j int) bool { return iv[i].start < iv[j].start })
		for i := 1; i < len(iv); i++ {
			if iv[i].start < iv[i-1].end {
				errs = append(errs, fmt.Errorf("%s %d double-booked: %s[%d] and %s[%d] overlap", resource, k, list, iv[i-1].index, list, iv[i].index))
			}
		}
	}
	return errs
}
