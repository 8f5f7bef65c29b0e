package fabric

import (
	"fmt"

	"paraplay/sim/topo"
	"paraplay/sim/units"
)

// Network tracks when each link of a topology is next free.
type Network struct {
	topo   *topo.Topology
	freeAt []units.Time
	direct map[[2]int]int // (from, to) → link ID, so a send is O(1)
}

// New returns a network with every link idle.
func New(t *topo.Topology) *Network {
	n := &Network{topo: t, freeAt: make([]units.Time, len(t.Links)), direct: make(map[[2]int]int, len(t.Links))}
	for _, l := range t.Links {
		if _, dup := n.direct[[2]int{l.From, l.To}]; !dup {
			n.direct[[2]int{l.From, l.To}] = l.ID
		}
	}
	return n
}

// Booking is the time a message holds a link.
type Booking struct {
	// Link is the ID of the link used.
	Link int
	// Start is when the message gets the link; End when its last byte arrives.
	Start, End units.Time
}

// Cost is the α–β time of one message of b bytes on link l: α + b/B
// (Hockney's model, as used by Thakur, Rabenseifner & Gropp 2005).
func Cost(l topo.Link, b units.Bytes) units.Time {
	return l.Latency + l.Bandwidth.TransferTime(b)
}

// Send books the direct link src→dst for a message of b bytes that is ready
// at now. Calls must come in non-decreasing order of now (the engine's order)
// for first-come-first-served to hold.
func (n *Network) Send(now units.Time, src, dst int, b units.Bytes) (Booking, error) {
	id, ok := n.direct[[2]int{src, dst}]
	if !ok {
		return Booking{}, fmt.Errorf("fabric: no link from GPU %d to GPU %d", src, dst)
	}
	start := max(now, n.freeAt[id])
	end := start + Cost(n.topo.Links[id], b)
	n.freeAt[id] = end
	return Booking{Link: id, Start: start, End: end}, nil
}
