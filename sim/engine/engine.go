package engine

import (
	"fmt"

	"paraplay/sim/units"
)

// Engine runs events in time order. The zero value is ready to use.
type Engine struct {
	now   units.Time
	queue radixQueue
	fired uint64
}

type event struct {
	at units.Time
	h  Handler
}

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
func (e *Engine) Pending() int { return e.queue.len() }

// At schedules fn at instant t. Scheduling into the past is a bug in the
// caller, so it panics rather than silently reordering history.
func (e *Engine) At(t units.Time, fn func()) {
	e.push(t, event{h: funcHandler(fn)})
}

func (e *Engine) push(t units.Time, ev event) {
	if t < e.now {
		panic(fmt.Sprintf("engine: event at %v scheduled from %v, in the past", t, e.now))
	}
	e.queue.push(ev, t)
}

// Schedule is At for a Handler: h.Fire() runs at instant t.
func (e *Engine) Schedule(t units.Time, h Handler) {
	e.push(t, event{h: h})
}

// After schedules fn d after the current time.
func (e *Engine) After(d units.Time, fn func()) { e.At(e.now+d, fn) }

// Run fires events until the queue is empty and returns the final time.
func (e *Engine) Run() units.Time {
	for e.queue.len() > 0 {
		ev := e.queue.pop()
		e.now = ev.at
		e.fired++
		ev.h.Fire()
	}
	return e.now
}
