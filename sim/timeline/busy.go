package timeline

import (
	"cmp"
	"math"
	"slices"

	"paraplay/sim/units"
)

// The summary's per-GPU times are lengths of unions of intervals. Copying
// every span's interval into per-GPU lists to union them costs 16 bytes a
// span, hundreds of MB on a 16,384-GPU run; but a validated timeline's
// spans come sorted by start, so each union can be merged as the spans go
// by, holding one open interval per GPU. The results are the same
// integers: the union of intervals fed in order of start is the set union
// (union's sort only puts them in that order). A timeline whose spans are
// out of order or inverted (Summarize of an unvalidated one) takes the
// copying path, which does not need the order.

// merged is the union of intervals fed in order of start, kept as its
// length so far and the interval still open.
type merged struct {
	open  span
	has   bool
	total units.Time
}

// add joins iv, whose start is no earlier than any interval before it,
// merging it as union does when it starts before the open one ends.
func (m *merged) add(iv span) {
	if m.has && iv.start <= m.open.end {
		m.open.end = max(m.open.end, iv.end)
		return
	}
	if m.has {
		m.total += m.open.end - m.open.start
	}
	m.open, m.has = iv, true
}

// length is the length of the union: length(union(everything added)).
func (m *merged) length() units.Time {
	if !m.has {
		return m.total
	}
	return m.total + m.open.end - m.open.start
}

// appendMerged adds iv to the sorted disjoint list s, whose intervals all
// start no later than iv: union(append(s, iv)) without the copy.
func appendMerged(s []span, iv span) []span {
	if last := len(s) - 1; last >= 0 && iv.start <= s[last].end {
		s[last].end = max(s[last].end, iv.end)
		return s
	}
	return append(s, iv)
}

// spansInOrder reports whether the spans on GPUs come sorted by start,
// each ending no earlier than it starts: what merging as they go by needs.
func (tl *Timeline) spansInOrder() bool {
	prev := units.Time(math.MinInt64)
	for s := range tl.AllSpans() {
		if !tl.isGPU(s.GPU) {
			continue
		}
		if s.Start < prev || s.End < s.Start {
			return false
		}
		prev = s.Start
	}
	return true
}

// gpuBusy is one GPU's running unions: compute spans, communication (its
// spans of blocking communication and its other communication), both.
type gpuBusy struct {
	compute, comm, busy merged
	// next is the index of its first other communication not yet added.
	next int
}

// busyTimes is, by GPU, the length of the union of the intervals it
// computed, communicated, and did either, and the length of the union of
// all communication: busyIntervals' lists, unioned and measured, merged as
// the spans go by. ok is false when the spans are out of order (the
// caller then unions busyIntervals' lists).
func (tl *Timeline) busyTimes() (compute, comm, busy []units.Time, all units.Time, ok bool) {
	if !tl.spansInOrder() {
		return nil, nil, nil, 0, false
	}
	other, allOther, ok := tl.otherComm()
	if !ok {
		return nil, nil, nil, 0, false
	}
	st := make([]gpuBusy, len(tl.GPUs))
	var allComm merged
	nextAll := 0
	// drain adds GPU g's other communication that starts by t (all of it
	// for t = MaxInt64).
	drain := func(g int, t units.Time) {
		b, ex := &st[g], other[g]
		for ; b.next < len(ex) && ex[b.next].start <= t; b.next++ {
			b.comm.add(ex[b.next])
			b.busy.add(ex[b.next])
		}
	}
	for sp := range tl.AllSpans() {
		if !tl.isGPU(sp.GPU) {
			continue
		}
		drain(sp.GPU, sp.Start)
		b, iv := &st[sp.GPU], span{sp.Start, sp.End}
		if sp.Kind.IsCommunication() {
			for ; nextAll < len(allOther) && allOther[nextAll].start <= iv.start; nextAll++ {
				allComm.add(allOther[nextAll])
			}
			allComm.add(iv)
			b.comm.add(iv)
		} else {
			b.compute.add(iv)
		}
		b.busy.add(iv)
	}
	for ; nextAll < len(allOther); nextAll++ {
		allComm.add(allOther[nextAll])
	}
	compute, comm, busy = make([]units.Time, len(st)), make([]units.Time, len(st)), make([]units.Time, len(st))
	for g := range st {
		drain(g, math.MaxInt64)
		compute[g], comm[g], busy[g] = st[g].compute.length(), st[g].comm.length(), st[g].busy.length()
	}
	return compute, comm, busy, allComm.length(), true
}

// otherComm is busyIntervals' communication that is not a span: by GPU,
// the messages it sends or receives and the analytic collectives it takes
// part in, and all of them once each, every list sorted by start. ok is
// false when one of them ends before it starts (merging needs none).
func (tl *Timeline) otherComm() (byGPU [][]span, all []span, ok bool) {
	byGPU = make([][]span, len(tl.GPUs))
	all = tl.addOtherComm(byGPU, nil)
	for _, iv := range all {
		if iv.end < iv.start {
			return nil, nil, false
		}
	}
	byStart := func(a, b span) int { return cmp.Compare(a.start, b.start) }
	for _, l := range byGPU {
		slices.SortFunc(l, byStart)
	}
	slices.SortFunc(all, byStart)
	return byGPU, all, true
}

// addOtherComm appends to byGPU, for each GPU, the messages it sends or
// receives and the analytic collectives it takes part in, and returns all
// with each of them appended once. An analytic collective has no transfers:
// it keeps all its GPUs busy communicating from its start to its end.
func (tl *Timeline) addOtherComm(byGPU [][]span, all []span) []span {
	detailed := make([]bool, len(tl.Collectives))
	for i := range tl.Transfers.Len() {
		x := tl.Transfers.At(i)
		if !tl.isGPU(x.Src) || !tl.isGPU(x.Dst) {
			continue
		}
		iv := span{x.Start, x.End}
		byGPU[x.Src] = append(byGPU[x.Src], iv)
		byGPU[x.Dst] = append(byGPU[x.Dst], iv)
		all = append(all, iv)
		if x.Collective >= 0 && x.Collective < len(detailed) {
			detailed[x.Collective] = true
		}
	}
	for i, c := range tl.Collectives {
		if detailed[i] || c.End <= c.Start {
			continue
		}
		iv := span{c.Start, c.End}
		for _, g := range c.GPUs {
			if tl.isGPU(g) {
				byGPU[g] = append(byGPU[g], iv)
			}
		}
		all = append(all, iv)
	}
	return all
}
