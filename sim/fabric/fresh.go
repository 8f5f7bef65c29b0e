//go:build !js

package fabric

// A flow that finds every link of its path empty, and none of them in the
// list of links to reshare yet, is fresh: the recomputation settles it
// without walking its links (a 1,024-GPU ring's 4 million flows are all
// alone on their links). The browser build, whose runs are small, walks
// them as before (fresh_js.go); both give the same rates in the same
// order.

// freshAlone reports whether a flow on path finds it empty and unlisted.
func (n *Network) freshAlone(path []int) bool {
	for _, id := range path {
		if len(n.onLink[id]) != 0 || n.dirtied[id] == n.pass+1 {
			return false
		}
	}
	return len(path) > 0
}

// visitDirty lists the links of the dirty list for the walk, in order,
// and reports whether it put a fresh flow's entry among them; a fresh
// flow still alone gets its rate and is frozen (share leaves it be). A fresh
// flow still alone on its links is a component of its own, found where
// the walk would find it (its links entered the list at its entry, and no
// other flow leads to them); one that no longer is stands for its links,
// as they would have been listed.
func (n *Network) visitDirty() (fresh bool) {
	for _, id := range n.dirty {
		if id >= 0 {
			n.visitLink(id)
			continue
		}
		m := n.fresh[-1-id]
		if rate, ok := n.aloneRate(m); ok {
			// Settled here: the filling would give it this rate
			// (shareAlone), and it has sent nothing yet.
			m.rate, m.frozen = rate, true
			n.links = append(n.links, id)
			fresh = true
			continue
		}
		for _, l := range n.paths[m.Route] {
			n.visitLink(l)
		}
	}
	n.dirty = n.dirty[:0]
	return fresh
}

// aloneRate is the rate of m, its slowest link's bandwidth, when it is
// the only flow on each of its links (as shareAlone), and whether it is.
func (n *Network) aloneRate(m *Message) (float64, bool) {
	best := -1.0
	for _, id := range n.paths[m.Route] {
		if len(n.onLink[id]) != 1 {
			return 0, false
		}
		if s := max(0, n.bandwidth[id]); best < 0 || s < best {
			best = s
		}
	}
	return best, true
}

// freshFlow is the fresh flow of entry id, found by the walk.
func (n *Network) freshFlow(id int) *Message {
	m := n.fresh[-1-id]
	m.mark = n.pass
	return m
}

// dropFresh takes the fresh flows' entries out of the links (the filling
// skips alone flows' links) and empties the list of fresh flows.
func (n *Network) dropFresh() {
	k := 0
	for _, id := range n.links {
		if id >= 0 {
			n.links[k] = id
			k++
		}
	}
	n.links = n.links[:k]
	n.fresh = n.fresh[:0]
}
