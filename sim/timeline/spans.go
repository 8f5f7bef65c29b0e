package timeline

import (
	"cmp"
	"fmt"
	"slices"

	"paraplay/sim/units"
)

// checkSpans checks the spans: each on an existing GPU with a positive
// length inside the run, all sorted by start then GPU, no GPU double-booked,
// and every backward after its microbatch's forward. It returns the latest
// end of a span on a GPU, for Validate's check of End.
//
// The order makes the double-booking check one pass: a GPU's spans come in
// start order, so each need only be compared with the GPU's span before it.
// Unsorted spans (already an error) are sorted per GPU to check the rest.
func (tl *Timeline) checkSpans() (units.Time, []error) {
	var errs, overlaps []error
	var last units.Time
	prevEnd := make([]units.Time, len(tl.GPUs))
	prevIdx := make([]int, len(tl.GPUs))
	for g := range prevIdx {
		prevIdx[g] = -1
	}
	sorted, prev, keys := true, -1, spanKeys{}
	for i := range tl.Spans {
		s := &tl.Spans[i]
		if !tl.isGPU(s.GPU) {
			errs = append(errs, fmt.Errorf("spans[%d]: GPU %d does not exist", i, s.GPU))
			continue
		}
		if s.Start < 0 || s.End <= s.Start {
			errs = append(errs, fmt.Errorf("spans[%d]: bad interval [%v, %v]", i, s.Start, s.End))
		}
		last = max(last, s.End)
		keys.see(s)
		if prev >= 0 && sorted && cmp.Or(cmp.Compare(s.Start, tl.Spans[prev].Start), cmp.Compare(s.GPU, tl.Spans[prev].GPU)) < 0 {
			sorted = false
			errs = append(errs, fmt.Errorf("spans[%d]: starts at %v on GPU %d, before spans[%d]: spans are not sorted by start then GPU",
				i, s.Start, s.GPU, prev))
		}
		prev = i
		if g := s.GPU; sorted {
			if prevIdx[g] >= 0 && s.Start < prevEnd[g] {
				overlaps = append(overlaps, doubleBooked(g, prevIdx[g], i))
			}
			prevEnd[g], prevIdx[g] = s.End, i
		}
	}
	if !sorted {
		overlaps = tl.overlapsUnsorted()
	}
	errs = append(errs, overlaps...)
	errs = append(errs, tl.checkBackwards(keys.newForwardEnds(len(tl.GPUs), len(tl.Spans)))...)
	return last, errs
}

func doubleBooked(gpu, a, b int) error {
	return fmt.Errorf("GPU %d double-booked: spans[%d] and spans[%d] overlap", gpu, a, b)
}

// overlapsUnsorted is the double-booking check for spans out of order:
// each GPU's spans sorted by start, each compared with the one before.
func (tl *Timeline) overlapsUnsorted() []error {
	perGPU := make([][]int, len(tl.GPUs))
	for i := range tl.Spans {
		if g := tl.Spans[i].GPU; tl.isGPU(g) {
			perGPU[g] = append(perGPU[g], i)
		}
	}
	var errs []error
	for g, idx := range perGPU {
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(tl.Spans[a].Start, tl.Spans[b].Start) })
		for k := 1; k < len(idx); k++ {
			if tl.Spans[idx[k]].Start < tl.Spans[idx[k-1]].End {
				errs = append(errs, doubleBooked(g, idx[k-1], idx[k]))
			}
		}
	}
	return errs
}

// spanKeys tracks what the backward check's keys need: the count of
// forward spans and the range of the iterations and microbatches of the
// forward and backward spans.
type spanKeys struct {
	forwards int
	// iterations and microbatches are one more than the largest seen.
	iterations, microbatches int
	// sparse: some iteration or microbatch is outside [0, maxDense), too
	// far out to index a table.
	sparse bool
}

// maxDense bounds the iterations and microbatches a dense table indexes, so
// that one more than the largest cannot overflow.
const maxDense = 1 << 31

func (k *spanKeys) see(s *Span) {
	if s.Kind != Forward && s.Kind != Backward {
		return
	}
	if s.Kind == Forward {
		k.forwards++
	}
	if s.Iteration < 0 || s.Microbatch < 0 || s.Iteration >= maxDense || s.Microbatch >= maxDense {
		k.sparse = true
		return
	}
	k.iterations, k.microbatches = max(k.iterations, s.Iteration+1), max(k.microbatches, s.Microbatch+1)
}

// forwardEnds maps a span's GPU, iteration and microbatch to the end of
// the last forward recorded for them.
type forwardEnds interface {
	set(s *Span)
	get(s *Span) (end units.Time, ok bool)
}

// newForwardEnds picks the map for the spans keys has seen: a dense table
// when the GPUs × iterations × microbatches it spans are no more than a few
// per span (every run the simulators make), else a hash map.
func (k *spanKeys) newForwardEnds(gpus, spans int) forwardEnds {
	if !k.sparse && k.iterations > 0 {
		limit := 2*spans + 1024
		if k.microbatches <= limit && k.iterations <= limit/k.microbatches && gpus <= limit/(k.iterations*k.microbatches) {
			d := &denseEnds{iterations: k.iterations, microbatches: k.microbatches, ends: make([]units.Time, gpus*k.iterations*k.microbatches)}
			for i := range d.ends {
				d.ends[i] = -1
			}
			return d
		}
	}
	return mapEnds(make(map[[3]int]units.Time, k.forwards))
}

// denseEnds is a forwardEnds indexed by GPU, iteration and microbatch; −1
// marks no forward (a span ends at 0 or later).
type denseEnds struct {
	iterations, microbatches int
	ends                     []units.Time
}

func (d *denseEnds) index(s *Span) int {
	return (s.GPU*d.iterations+s.Iteration)*d.microbatches + s.Microbatch
}

func (d *denseEnds) set(s *Span) { d.ends[d.index(s)] = s.End }

func (d *denseEnds) get(s *Span) (units.Time, bool) {
	e := d.ends[d.index(s)]
	return e, e >= 0
}

// mapEnds is a forwardEnds for keys too sparse for a table.
type mapEnds map[[3]int]units.Time

func (m mapEnds) set(s *Span) { m[[3]int{s.GPU, s.Iteration, s.Microbatch}] = s.End }

func (m mapEnds) get(s *Span) (units.Time, bool) {
	e, ok := m[[3]int{s.GPU, s.Iteration, s.Microbatch}]
	return e, ok
}

// checkBackwards checks that every backward span starts after the last
// forward (in span order) of its GPU, iteration and microbatch ended.
func (tl *Timeline) checkBackwards(ends forwardEnds) []error {
	for i := range tl.Spans {
		if s := &tl.Spans[i]; s.Kind == Forward && tl.isGPU(s.GPU) {
			ends.set(s)
		}
	}
	var errs []error
	for i := range tl.Spans {
		s := &tl.Spans[i]
		if s.Kind != Backward || !tl.isGPU(s.GPU) {
			continue
		}
		if fe, ok := ends.get(s); !ok || s.Start < fe {
			errs = append(errs, fmt.Errorf("spans[%d]: backward of microbatch %d on GPU %d starts at %v before its forward ended", i, s.Microbatch, s.GPU, s.Start))
		}
	}
	return errs
}
