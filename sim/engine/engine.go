package engine

import (
	"paraplay/sim/radixheap"
	"paraplay/sim/units"
)

// Engine runs events in time order. The zero value is ready to use.
type Engine struct {
	now units.Time
	// queue is a radix heap: simulated time never goes back, and events
	// of one instant fire in the order they were scheduled. A 4-ary heap
	// of the ~8,000 events in flight of a 1,024-GPU ring took 1 s per 8
	// million pops. The events of an instant after its first travel in
	// batches (instants.go).
	queue radixheap.Queue[Handler]
	// pending counts the events waiting, in the queue alone or in its
	// batches (instants.go; the browser build has none, instants_js.go).
	pending int
	batches batches
	fired   uint64
	// last is the time of the last event that did something (Run's
	// result); idle says the event being run has called Idle.
	last units.Time
	idle bool
}

// Idle says the event being run did nothing: a stale event, such as a
// message's completion re-armed earlier when its rate rose. Run does not
// count its time as the end of the simulation.
func (e *Engine) Idle() { e.idle = true }

// funcHandler lets a plain function be an event; a func value is a single
// pointer, so wrapping it in the interface costs no allocation.
type funcHandler func()

func (f funcHandler) Fire() { f() }

// Handler is an event target that needs no closure: scheduling a pointer
// that implements it costs no allocation, which matters for the millions of
// messages of a large collective.
type Handler interface {
	// Fire runs the event.
	Fire()
}

// Now is the simulated time of the event being run (or of the last one).
func (e *Engine) Now() units.Time { return e.now }

// Fired counts the events run so far.
func (e *Engine) Fired() uint64 { return e.fired }

// Pending is the number of events waiting to fire.
func (e *Engine) Pending() int { return e.pending }

// At schedules fn at instant t. Scheduling into the past is a bug in the
// caller, so it panics rather than silently reordering history.
func (e *Engine) At(t units.Time, fn func()) {
	e.push(t, funcHandler(fn))
}

// Schedule is At for a Handler: h.Fire() runs at instant t.
func (e *Engine) Schedule(t units.Time, h Handler) {
	e.push(t, h)
}

// After schedules fn d after the current time.
func (e *Engine) After(d units.Time, fn func()) { e.At(e.now+d, fn) }

// Run fires events until the queue is empty and returns the time of the
// last one that did something (not Idle).
func (e *Engine) Run() units.Time {
	for e.queue.Len() > 0 {
		var h Handler
		e.now, h = e.queue.Pop()
		e.dispatch(h)
	}
	return e.last
}

// fire runs one event.
func (e *Engine) fire(h Handler) {
	e.pending--
	e.fired++
	e.idle = false
	h.Fire()
	if !e.idle {
		e.last = e.now
	}
}
