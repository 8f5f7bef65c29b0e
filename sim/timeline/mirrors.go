package timeline

import (
	"cmp"
	"fmt"
	"iter"
	"slices"
)

// A run whose data-parallel replicas cannot differ (no faults, stragglers,
// mixed GPUs or variable batches, the same links between their stages) is
// simulated one replica at a time: the other replicas do exactly what the
// first does, on their own GPUs. Such a timeline keeps only the simulated
// GPUs' spans in Spans and says in Mirrors which GPU each of the others
// repeats; AllSpans lists every span as if all had been recorded, and
// Expand records them. A 16,384-GPU run of 128 replicas keeps 1/128 of its
// spans this way (ARCHITECTURE.md, "Mirrored replicas" under its conventions).

// AllSpans lists the run's spans in Spans' order (start, then GPU): Spans
// itself, or, in a mirrored timeline, each span once on its GPU and once on
// every GPU that mirrors it.
func (tl *Timeline) AllSpans() iter.Seq[Span] {
	if tl.Mirrors == nil {
		return func(yield func(Span) bool) {
			for _, s := range tl.Spans {
				if !yield(s) {
					return
				}
			}
		}
	}
	copies := tl.mirrorCopies()
	if block, n, ok := regularMirrors(copies); ok {
		return tl.blockSpans(block, n)
	}
	return func(yield func(Span) bool) {
		var group []Span
		for i := 0; i < len(tl.Spans); {
			// The spans that start at one instant, copied to their
			// mirrors and put in GPU order.
			j := i + 1
			for j < len(tl.Spans) && tl.Spans[j].Start == tl.Spans[i].Start {
				j++
			}
			group = group[:0]
			for _, s := range tl.Spans[i:j] {
				if !tl.isGPU(s.GPU) {
					group = append(group, s)
					continue
				}
				for _, g := range copies[s.GPU] {
					s.GPU = g
					group = append(group, s)
				}
			}
			slices.SortStableFunc(group, func(a, b Span) int { return cmp.Compare(a.GPU, b.GPU) })
			for _, s := range group {
				if !yield(s) {
					return
				}
			}
			i = j
		}
	}
}

// regularMirrors reports whether the mirrors are n blocks of the first
// block GPUs: GPU g + i·block mirrors GPU g < block (replicas outermost in
// the ranks' order, as is usual), and returns block and n.
func regularMirrors(copies [][]int) (block, n int, ok bool) {
	for block < len(copies) && len(copies[block]) > 0 {
		block++
	}
	if block == 0 {
		return 0, 0, false
	}
	n = len(copies[0])
	if block*n != len(copies) {
		return 0, 0, false
	}
	for g := range copies {
		c := copies[g]
		if g >= block {
			if len(c) != 0 {
				return 0, 0, false
			}
			continue
		}
		if len(c) != n {
			return 0, 0, false
		}
		for i, m := range c {
			if m != g+i*block {
				return 0, 0, false
			}
		}
	}
	return block, n, true
}

// blockSpans is AllSpans for regular mirrors: the spans of one instant,
// on GPUs below block in GPU order, are listed n times over, block GPUs
// further each time, which keeps the order without sorting.
func (tl *Timeline) blockSpans(block, n int) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		for i := 0; i < len(tl.Spans); {
			j := i + 1
			for j < len(tl.Spans) && tl.Spans[j].Start == tl.Spans[i].Start {
				j++
			}
			for c := 0; c < n; c++ {
				for _, s := range tl.Spans[i:j] {
					if tl.isGPU(s.GPU) {
						s.GPU += c * block
					} else if c > 0 {
						continue // listed once
					}
					if !yield(s) {
						return
					}
				}
			}
			i = j
		}
	}
}

// SpanCount is how many spans AllSpans lists.
func (tl *Timeline) SpanCount() int {
	if tl.Mirrors == nil {
		return len(tl.Spans)
	}
	copies := tl.mirrorCopies()
	n := 0
	for i := range tl.Spans {
		if g := tl.Spans[i].GPU; tl.isGPU(g) {
			n += len(copies[g])
		} else {
			n++
		}
	}
	return n
}

// Expand records every mirrored span in Spans, leaving a timeline that is
// not mirrored.
func (tl *Timeline) Expand() {
	if tl.Mirrors == nil {
		return
	}
	all := make([]Span, 0, tl.SpanCount())
	for s := range tl.AllSpans() {
		all = append(all, s)
	}
	tl.Spans, tl.Mirrors = all, nil
}

// mirrorCopies lists, by simulated GPU, the GPUs that show its spans: itself
// first, then its mirrors in id order.
func (tl *Timeline) mirrorCopies() [][]int {
	copies := make([][]int, len(tl.GPUs))
	for g := range tl.GPUs {
		if g < len(tl.Mirrors) && tl.isGPU(tl.Mirrors[g]) {
			src := tl.Mirrors[g]
			copies[src] = append(copies[src], g)
		}
	}
	return copies
}

// checkMirrors checks a mirrored timeline: one entry per GPU, each naming
// an existing GPU that is simulated (mirrors itself), and no span on a GPU
// that is not simulated.
func (tl *Timeline) checkMirrors() []error {
	if tl.Mirrors == nil {
		return nil
	}
	if len(tl.Mirrors) != len(tl.GPUs) {
		return []error{fmt.Errorf("mirrors: %d entries for %d GPUs", len(tl.Mirrors), len(tl.GPUs))}
	}
	var errs []error
	for g, src := range tl.Mirrors {
		if !tl.isGPU(src) || tl.Mirrors[src] != src {
			errs = append(errs, fmt.Errorf("mirrors[%d]: GPU %d is not a simulated GPU", g, src))
		}
	}
	if errs != nil {
		return errs
	}
	for i := range tl.Spans {
		if g := tl.Spans[i].GPU; tl.isGPU(g) && tl.Mirrors[g] != g {
			errs = append(errs, fmt.Errorf("spans[%d]: GPU %d mirrors GPU %d and has no spans of its own", i, g, tl.Mirrors[g]))
		}
	}
	return errs
}
