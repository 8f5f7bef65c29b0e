//go:build js

package engine

import (
	"fmt"

	"paraplay/sim/units"
)

// The browser build puts every event into the radix heap alone, as the
// host did before instants.go: its runs are small (the work budget), and
// the batches cost the wasm 3 KB. Both fire the same events in the same
// order.

// batches is unused in the browser build.
type batches struct{}

func (e *Engine) push(t units.Time, h Handler) {
	if t < e.now {
		panic(fmt.Sprintf("engine: event at %v scheduled from %v, in the past", t, e.now))
	}
	e.pending++
	e.queue.Push(t, h)
}

// dispatch fires h.
func (e *Engine) dispatch(h Handler) { e.fire(h) }
