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
	for i, l := range tl.Links {
		if l.ID != i || !tl.isGPU(l.From) || !tl.isGPU(l.To) || l.From == l.To {
			bad("links[%d]: id %d joins %d→%d", i, l.ID, l.From, l.To)
		}
	}
	var last units.Time
	perGPU := make(map[int][]interval)
	forwardEnd := map[[2]int]units.Time{}
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
			forwardEnd[[2]int{s.GPU, s.Microbatch}] = s.End
		}
	}
	for i, s := range tl.Spans {
		if s.Kind != Backward {
			continue
		}
		fe, ok := forwardEnd[[2]int{s.GPU, s.Microbatch}]
		if !ok || s.Start < fe {
			bad("spans[%d]: backward of microbatch %d on GPU %d starts at %v before its forward ended", i, s.Microbatch, s.GPU, s.Start)
		}
	}
	perLink := make(map[int][]interval)
	for i, x := range tl.Transfers {
		if x.Link < 0 || x.Link >= len(tl.Links) {
			bad("transfers[%d]: link %d does not exist", i, x.Link)
			continue
		}
		if l := tl.Links[x.Link]; l.From != x.Src || l.To != x.Dst {
			bad("transfers[%d]: %d→%d on link %d, which joins %d→%d", i, x.Src, x.Dst, x.Link, l.From, l.To)
		}
		if x.Start < 0 || x.End <= x.Start || x.Bytes <= 0 {
			bad("transfers[%d]: bad interval [%v, %v] or size %d", i, x.Start, x.End, x.Bytes)
		}
		if x.Collective < -1 || x.Collective >= len(tl.Collectives) {
			bad("transfers[%d]: collective %d does not exist", i, x.Collective)
		}
		last = max(last, x.End)
		perLink[x.Link] = append(perLink[x.Link], interval{x.Start, x.End, i})
	}
	errs = append(errs, overlaps("GPU", "spans", perGPU)...)
	errs = append(errs, overlaps("link", "transfers", perLink)...)
	if last != tl.End {
		bad("end is %v but the last operation ends at %v", tl.End, last)
	}
	return errors.Join(errs...)
}

func (tl *Timeline) isGPU(id int) bool { return id >= 0 && id < len(tl.GPUs) }

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
