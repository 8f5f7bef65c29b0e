//go:build !js

package timeline

import (
	"paraplay/sim/collective"
	"paraplay/sim/units"
)

// A list holds the schedules whose messages it records on the host only:
// the browser's runs are small, and its messages keep their fields in
// loose records (transfers_source_js.go), which cost the download less.

// AddSource has the list hold transfers, the messages of a schedule
// recorded as collective coll, and returns the item LeaveItem names
// transfer 0 by (transfer k is item+k) and their wires, one per transfer,
// for the caller to fill in before the list is read; −1 and nil when the
// numbers do not fit a record, and the messages must Leave instead.
// transfers must not change while the list lives.
func (t *Transfers) AddSource(transfers []collective.Transfer, coll int) (int32, []Wire) {
	first := 0
	if k := len(t.sources); k > 0 {
		first = int(t.sources[k-1].first) + len(t.sources[k-1].transfers)
	}
	if !fits32(coll) || !fits32(first+len(transfers)) {
		return -1, nil
	}
	wires := make([]Wire, len(transfers))
	t.sources = append(t.sources, source{first: int32(first), coll: int32(coll), transfers: transfers, wires: wires})
	return int32(first), wires
}

// LeaveItem is Leave for message item of the sources (AddSource), which
// left at start.
func (t *Transfers) LeaveItem(item int32, start units.Time) int {
	t.made = true
	t.recs = append(t.recs, transferRec{start: start, item: item, route: -1, nrates: -1})
	return len(t.recs) - 1
}

// sourced is what message item of a source is (Transfers.fixed).
func (t *Transfers) sourced(item int32) Transfer {
	s := t.sourceOf(item)
	tr, w := &s.transfers[item-s.first], &s.wires[item-s.first]
	return Transfer{Src: int(w.Src), Dst: int(w.Dst), Bytes: w.Bytes, Collective: int(s.coll),
		Step: tr.Step, Chunk: tr.Chunk, Channel: tr.Channel, Phase: tr.Phase.String()}
}

// sourceOf is the source of message item (≥ 0), by bisection: a training
// run places thousands of schedules.
func (t *Transfers) sourceOf(item int32) *source {
	lo, hi := 0, len(t.sources)-1
	for lo < hi {
		if mid := (lo + hi + 1) / 2; t.sources[mid].first <= item {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return &t.sources[lo]
}
