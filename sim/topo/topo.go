package topo

import (
	"errors"
	"fmt"

	"paraplay/sim/units"
)

// Topology is a set of GPUs joined by directed links.
type Topology struct {
	// GPUs are indexed by their ID.
	GPUs []GPU
	// Links are indexed by their ID. A full-duplex cable is two links.
	Links []Link
}

// GPU is one device.
type GPU struct {
	// ID is the GPU's index in Topology.GPUs.
	ID int
	// Node is the index of the server that holds the GPU.
	Node int
	// Name labels the GPU for people.
	Name string
}

// Link is one direction of a connection between two GPUs.
type Link struct {
	// ID is the link's index in Topology.Links.
	ID int
	// From and To are GPU IDs; From != To.
	From, To int
	// Bandwidth is the rate of this direction, > 0.
	Bandwidth units.Bandwidth
	// Latency is α, the fixed cost every message pays on this link, ≥ 0.
	Latency units.Time
}

// Ring builds n GPUs in one node joined in a ring by full-duplex links: for
// every i, a link i→i+1 and a link i+1→i (indices mod n). With n = 2 the two
// neighbours are the same GPU, so there is one link each way.
func Ring(n int, bw units.Bandwidth, latency units.Time) *Topology {
	t := &Topology{}
	for i := 0; i < n; i++ {
		t.GPUs = append(t.GPUs, GPU{ID: i, Node: 0, Name: fmt.Sprintf("GPU %d", i)})
	}
	add := func(from, to int) {
		t.Links = append(t.Links, Link{ID: len(t.Links), From: from, To: to, Bandwidth: bw, Latency: latency})
	}
	for i := 0; i < n; i++ {
		next := (i + 1) % n
		if n == 2 && i == 1 {
			break // 0↔1 already joined
		}
		add(i, next)
		add(next, i)
	}
	return t
}

// LinkBetween returns the ID of the direct link from → to.
func (t *Topology) LinkBetween(from, to int) (int, bool) {
	for _, l := range t.Links {
		if l.From == from && l.To == to {
			return l.ID, true
		}
	}
	return 0, false
}

// Validate checks that IDs are indices, links join distinct existing GPUs,
// and every bandwidth and latency is in range.
func (t *Topology) Validate() error {
	var errs []error
	if len(t.GPUs) == 0 {
		errs = append(errs, errors.New("topology has no GPUs"))
	}
	for i, g := range t.GPUs {
		if g.ID != i {
			errs = append(errs, fmt.Errorf("gpus[%d]: id is %d, want %d", i, g.ID, i))
		}
	}
	for i, l := range t.Links {
		switch {
		case l.ID != i:
			errs = append(errs, fmt.Errorf("links[%d]: id is %d, want %d", i, l.ID, i))
		case l.From < 0 || l.From >= len(t.GPUs) || l.To < 0 || l.To >= len(t.GPUs):
			errs = append(errs, fmt.Errorf("links[%d]: joins GPU %d to GPU %d; GPUs are 0..%d", i, l.From, l.To, len(t.GPUs)-1))
		case l.From == l.To:
			errs = append(errs, fmt.Errorf("links[%d]: joins GPU %d to itself", i, l.From))
		case !(l.Bandwidth > 0):
			errs = append(errs, fmt.Errorf("links[%d]: bandwidth is %v; must be > 0", i, l.Bandwidth))
		case l.Latency < 0:
			errs = append(errs, fmt.Errorf("links[%d]: latency is %v; must be ≥ 0", i, l.Latency))
		}
	}
	return errors.Join(errs...)
}
