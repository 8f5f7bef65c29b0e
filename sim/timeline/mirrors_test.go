package timeline

import (
	"cmp"
	"slices"
	"testing"

	"paraplay/sim/units"
)

// TestAllSpans expands small mirrored timelines, with replicas outermost
// (regular) and innermost, and checks them against copying every span to
// its mirrors and sorting by start then GPU.
func TestAllSpans(t *testing.T) {
	for _, c := range []struct {
		name    string
		mirrors []int
	}{
		{"regular: two blocks of three", []int{0, 1, 2, 0, 1, 2}},
		{"replicas innermost", []int{0, 0, 2, 2, 4, 4}},
		{"uneven", []int{0, 1, 0, 0, 1, 5}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tl := &Timeline{GPUs: make([]GPU, len(c.mirrors)), Mirrors: c.mirrors}
			for g := range tl.GPUs {
				tl.GPUs[g].ID = g
			}
			for g, src := range c.mirrors {
				if g == src {
					tl.Spans = append(tl.Spans, Span{GPU: g, Kind: Forward, Start: 0, End: 5}, Span{GPU: g, Kind: Backward, Start: 5 + units.Time(g), End: 20})
				}
			}
			slices.SortStableFunc(tl.Spans, func(a, b Span) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU)) })
			if err := tl.checkMirrors(); err != nil {
				t.Fatal(err)
			}
			var want []Span
			for _, s := range tl.Spans {
				for g, src := range c.mirrors {
					if src == s.GPU {
						c := s
						c.GPU = g
						want = append(want, c)
					}
				}
			}
			slices.SortStableFunc(want, func(a, b Span) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.GPU, b.GPU)) })
			got := slices.Collect(tl.AllSpans())
			if !slices.Equal(got, want) {
				t.Errorf("AllSpans:\n%v\nwant\n%v", got, want)
			}
			if n := tl.SpanCount(); n != len(want) {
				t.Errorf("SpanCount = %d, want %d", n, len(want))
			}
			tl.Expand()
			if !slices.Equal(tl.Spans, want) || tl.Mirrors != nil {
				t.Errorf("Expand left %d spans (mirrors %v), want %d", len(tl.Spans), tl.Mirrors, len(want))
			}
		})
	}
}

// TestCheckMirrors refuses mirrors that name a GPU that is not simulated,
// and spans on a mirror.
func TestCheckMirrors(t *testing.T) {
	tl := &Timeline{GPUs: make([]GPU, 3), Mirrors: []int{0, 0, 1}}
	if errs := tl.checkMirrors(); len(errs) != 1 {
		t.Errorf("mirrors of a mirror: %v, want one error", errs)
	}
	tl.Mirrors = []int{0, 0, 2}
	tl.Spans = []Span{{GPU: 1, Start: 0, End: 1}}
	if errs := tl.checkMirrors(); len(errs) != 1 {
		t.Errorf("a span on a mirror: %v, want one error", errs)
	}
	tl.Mirrors = []int{0}
	if errs := tl.checkMirrors(); len(errs) != 1 {
		t.Errorf("too few mirrors: %v, want one error", errs)
	}
}
