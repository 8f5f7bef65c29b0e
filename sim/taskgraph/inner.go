//go:build !js

package taskgraph

// innerEdges are the edges between the messages of one placed schedule:
// message first+i waits for message first+a for each a in the
// schedule's After(i). They are the first edges out of those messages
// (the messages did not exist before AddSchedule added them), so link
// puts them at the front of each message's list, in the order of i.
type innerEdges struct {
	first, coll int32
	// ready is AddSchedule's: when ready[src] ≥ 0 a message's first
	// predecessor is ready[src], an edge of its own.
	ready []int
	// lens[i] is len(After(i)) when the transfers' windows lie back to
	// back in the schedule's Deps from its start, up to end (as the
	// constructors write them); nil when they do not. fillInner then
	// reads Deps alone, not every transfer's 72-byte record again (300 MB
	// in a 1,024-GPU ring).
	lens []uint8
	end  int
}

// countAfter counts the successors of the messages a schedule's message
// waits for (after, in the schedule's pool deps), on AddSchedule's one
// walk over the schedule's records, and notes the window's length.
func (a *adjacency) countAfter(first int, after, deps []int32) {
	for _, d := range after {
		a.first[first+int(d)]++
	}
	in := &a.inner[len(a.inner)-1]
	if in.lens == nil {
		return
	}
	if len(after) > 255 || len(after) > 0 && (in.end >= len(deps) || &after[0] != &deps[in.end]) {
		in.lens = nil // not back to back: fillInner reads the records
		return
	}
	in.lens = append(in.lens, uint8(len(after)))
	in.end += len(after)
}

// placeInner notes that the messages of placed schedule c, ops first
// on, wait for each other through the schedule (AddSchedule with ready),
// and reports that it did.
func (g *Graph) placeInner(first, c int, ready []int) bool {
	n := len(g.msgs.colls[c].sch.Transfers)
	g.edges.inner = append(g.edges.inner, innerEdges{first: int32(first), coll: int32(c), ready: ready, lens: make([]uint8, 0, n)})
	g.edges.growCounts(first + n)
	return true
}

// fillInner writes the inner edges at the front of their sources' lists,
// each list's start in first moving back past them (link has written the
// other edges behind them).
func (g *Graph) fillInner() {
	a := &g.edges
	for k := len(a.inner) - 1; k >= 0; k-- {
		in := a.inner[k]
		sch := &g.msgs.colls[in.coll].sch
		if in.lens != nil {
			in.fillFromDeps(a, sch.Deps)
			continue
		}
		for i := len(sch.Transfers) - 1; i >= 0; i-- {
			after := sch.After(i)
			for j := len(after) - 1; j >= 0; j-- {
				src := in.first + after[j]
				a.first[src]--
				a.next[a.first[src]] = in.first + int32(i)
			}
		}
	}
}

// fillFromDeps is fillInner for a schedule whose windows lie back to
// back in deps (lens).
func (in *innerEdges) fillFromDeps(a *adjacency, deps []int32) {
	pos := in.end
	for i := len(in.lens) - 1; i >= 0; i-- {
		start := pos - int(in.lens[i])
		for j := pos - 1; j >= start; j-- {
			src := in.first + deps[j]
			a.first[src]--
			a.next[a.first[src]] = in.first + int32(i)
		}
		pos = start
	}
}

// innerPredecessors is Predecessors for op id, whose other predecessors
// are pre: a message of a placed schedule waits for its ready op, then
// for the messages of its After, then for what Depend added.
func (g *Graph) innerPredecessors(id int, pre []int) []int {
	a := &g.edges
	k := len(a.inner) - 1 // the last schedule placed at or before id
	for k >= 0 && int(a.inner[k].first) > id {
		k--
	}
	if k < 0 {
		return pre
	}
	in := a.inner[k]
	sch := &g.msgs.colls[in.coll].sch
	i := id - int(in.first)
	if i >= len(sch.Transfers) {
		return pre
	}
	after := sch.After(i)
	if len(after) == 0 {
		return pre
	}
	head := 0
	if in.ready != nil && in.ready[sch.Transfers[i].Src] >= 0 {
		head = 1
	}
	out := make([]int, 0, len(pre)+len(after))
	out = append(out, pre[:head]...)
	for _, d := range after {
		out = append(out, int(in.first+d))
	}
	return append(out, pre[head:]...)
}
