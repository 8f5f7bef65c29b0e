//go:build js

package training

import (
	"paraplay/sim/pipeline"
	"paraplay/sim/units"
)

// The browser keeps the planner's simpler bounds (the wasm budget): no
// floor on the data-parallel stream, no forward chain, no backward tail
// (estimate_comm.go is the host's). Zero is a true floor of each, so the
// browser's search prunes less but finds the same best plan.

// streamBound is zero in the browser.
type streamBound struct{ Before, After units.Time }

// streamWait is zero in the browser.
func (tr *iteration) streamWait(streamBound, int, units.Time) units.Time { return 0 }

// deviceStart is zero in the browser.
func (tr *iteration) deviceStart([]units.Time, int) units.Time { return 0 }

// ringKey and ringLinks are the host's cache of group prices.
type ringKey struct{}
type ringLinks struct{}

// streamBounds is zero for every device in the browser.
func (tr *iteration) streamBounds(map[ringKey]*ringLinks) ([]streamBound, error) {
	return make([]streamBound, tr.sch.Stages), nil
}

// forwardChain is nothing in the browser.
func (tr *iteration) forwardChain() []units.Time { return nil }

// backwardTail is zero in the browser.
func (tr *iteration) backwardTail(pipeline.Op, int) units.Time { return 0 }
