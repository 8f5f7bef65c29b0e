//go:build !js

package timeline

import (
	"fmt"

	"paraplay/sim/chunks"
	"paraplay/sim/units"
)

// checkTransfers checks every message as checkTransfer does and that no
// link carries more than its bandwidth (checkCapacity), and returns the
// last end among them. It walks the records once, without copying each
// into a Transfer: each distinct path is followed once (a run has
// thousands of paths and millions of messages), and a message that fails
// the quick test is checked again by checkTransfer, which names the
// fault. The capacity sweep runs only when the walk cannot settle it
// (exclusiveLinks). A large run splits the work across the cores
// (checkTransfersSplit), into no more ranges than it has messages per
// link: each range keeps three numbers by link, which then take less
// memory than the records.
func (tl *Timeline) checkTransfers() (last units.Time, errs []error) {
	if n := min(chunks.For(tl.Transfers.Len()), tl.Transfers.Len()/max(len(tl.Links), 1)); n > 1 {
		return tl.checkTransfersSplit(n)
	}
	return tl.checkTransfersInOrder()
}

// checkTransfersInOrder is checkTransfers on one core.
func (tl *Timeline) checkTransfersInOrder() (last units.Time, errs []error) {
	xs := &tl.Transfers
	ex := newExclusiveLinks(tl)
	routes := make([]routeCheck, len(xs.paths))
	for i := range xs.recs {
		r := &xs.recs[i]
		if r.route < 0 || !tl.recordOK(xs, r, routes) { // no path, or a wide message
			x := xs.At(i)
			if err := tl.checkTransfer(&x); err != nil {
				errs = append(errs, fmt.Errorf("transfers[%d]: %v", i, err))
				ex.settled = false
			}
			last = max(last, x.End)
			ex.add(x.Start, x.End, x.Path, x.Rates)
			continue
		}
		last = max(last, r.end)
		ex.add(r.start, r.end, xs.paths[r.route], xs.rates[r.rates:r.rates+max(r.nrates, 0)])
	}
	if !ex.settled {
		errs = append(errs, tl.checkCapacity()...)
	}
	return last, errs
}

// routeCheck is what following a path once found: the vertices it leaves
// and reaches when every link exists and each leaves where the last
// arrived (state 1), or that it does not (state 2); 0: not followed yet.
type routeCheck struct {
	from, to int
	state    int8
}

// recordOK is the quick test of record r (which has a path): true when
// checkTransfer would accept its message.
func (tl *Timeline) recordOK(xs *Transfers, r *transferRec, routes []routeCheck) bool {
	src, dst, bytes, coll := xs.ends(r)
	rc := &routes[r.route]
	if rc.state == 0 {
		*rc = tl.follow(xs.paths[r.route])
	}
	if !tl.isGPU(src) || !tl.isGPU(dst) || src == dst || rc.state != 1 || rc.from != src || rc.to != dst ||
		r.start < 0 || r.end <= r.start || bytes <= 0 || coll < -1 || coll >= len(tl.Collectives) {
		return false
	}
	return checkRates(r.start, r.end, bytes, xs.rates[r.rates:r.rates+max(r.nrates, 0)]) == nil
}

// ends is the GPUs, size and collective of record r's message (fixed,
// without the rest).
func (t *Transfers) ends(r *transferRec) (src, dst int, bytes units.Bytes, coll int) {
	if r.item < 0 {
		l := &t.loose[-1-r.item]
		return int(l.src), int(l.dst), l.bytes, int(l.coll)
	}
	s := t.sourceOf(r.item)
	w := &s.wires[r.item-s.first]
	return int(w.Src), int(w.Dst), w.Bytes, int(s.coll)
}

// follow walks path from its first link's start.
func (tl *Timeline) follow(path []int) routeCheck {
	var c routeCheck
	for k, id := range path {
		if id < 0 || id >= len(tl.Links) {
			return routeCheck{state: 2}
		}
		l := &tl.Links[id]
		if k == 0 {
			c.from = l.From
		} else if l.From != c.to {
			return routeCheck{state: 2}
		}
		c.to = l.To
	}
	if len(path) == 0 {
		return routeCheck{state: 2}
	}
	c.state = 1
	return c
}
