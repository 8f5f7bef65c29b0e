package engine

import (
	"container/heap"
	"fmt"

	"paraplay/sim/units"
)

// Engine runs events in time order. The zero value is ready to use.
type Engine struct {
	now   units.Time
	seq   uint64
	queue eventQueue
	fired uint64
}

type event struct {
	at  units.Time
	seq uint64
	fn  func()
}

type eventQueue []event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// Now is the simulated time of the event being run (or of the last one).
func (e *Engine) Now() units.Time { return e.now }

// Fired counts the events run so far.
func (e *Engine) Fired() uint64 { return e.fired }

// At schedules fn at instant t. Scheduling into the past is a bug in the
// caller, so it panics rather than silently reordering history.
func (e *Engine) At(t units.Time, fn func()) {
	if t < e.now {
		panic(fmt.Sprintf("engine: event at %v scheduled from %v, in the past", t, e.now))
	}
	heap.Push(&e.queue, event{at: t, seq: e.seq, fn: fn})
	e.seq++
}

// After schedules fn d after the current time.
func (e *Engine) After(d units.Time, fn func()) { e.At(e.now+d, fn) }

// Run fires events until the queue is empty and returns the final time.
func (e *Engine) Run() units.Time {
	for e.queue.Len() > 0 {
		ev := heap.Pop(&e.queue).(event)
		e.now = ev.at
		e.fired++
		ev.fn()
	}
	return e.now
}
