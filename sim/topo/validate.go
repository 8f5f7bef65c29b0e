//go:build !js

package topo

import (
	"errors"
	"fmt"
)

// Validate runs on the host (the tests of every builder); the browser
// build, which builds the same topologies, leaves it out of the wasm.

// Validate checks that IDs are indices, links join distinct existing
// vertices, and every bandwidth and latency is in range.
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
	for i, s := range t.Switches {
		if s.ID != len(t.GPUs)+i {
			errs = append(errs, fmt.Errorf("switches[%d]: id is %d, want %d", i, s.ID, len(t.GPUs)+i))
		}
	}
	n := t.Vertices()
	for i, l := range t.Links {
		switch {
		case l.ID != i:
			errs = append(errs, fmt.Errorf("links[%d]: id is %d, want %d", i, l.ID, i))
		case l.From < 0 || l.From >= n || l.To < 0 || l.To >= n:
			errs = append(errs, fmt.Errorf("links[%d]: joins vertex %d to vertex %d; vertices are 0..%d", i, l.From, l.To, n-1))
		case l.From == l.To:
			errs = append(errs, fmt.Errorf("links[%d]: joins vertex %d to itself", i, l.From))
		case !(l.Bandwidth > 0):
			errs = append(errs, fmt.Errorf("links[%d]: bandwidth is %v; must be > 0", i, l.Bandwidth))
		case l.Latency < 0:
			errs = append(errs, fmt.Errorf("links[%d]: latency is %v; must be ≥ 0", i, l.Latency))
		}
	}
	return errors.Join(errs...)
}
