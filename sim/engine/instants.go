//go:build !js

package engine

import (
	"fmt"

	"paraplay/sim/units"
)

// batch is the events of one instant after the first, in scheduling
// order: a large collective schedules millions of events at a few
// instants per step (all of a step's messages leave, clear their latency
// and arrive together), and a batch puts them into the radix heap as one
// value, which moves two or three times between its buckets, instead of
// one each (a fifth of a 1,024-GPU ring's run went into the heap). An
// event alone at its instant goes into the heap as before.
//
// Events of one instant still fire in the order they were scheduled. The
// first goes into the heap alone; the second opens a batch behind it;
// later ones join that batch while it is the newest value of their
// instant, which the cache tracks: every event passes through its
// instant's slot, so a slot that names the instant knows the newest
// value. A batch takes no event once it has fired to its end (done).
type batch struct {
	at     units.Time
	events []Handler
	done   bool
}

// Fire is never called: Run fires a batch's events one by one.
func (b *batch) Fire() { panic("engine: a batch fired as an event") }

// batches are the engine's: a cache of the newest value of each
// instant's slot, and the batches free for reuse.
type batches struct {
	cache [cacheSlots]newest
	free  []*batch
}

// newest is a cache slot: the newest value the engine put into the heap
// at instant at, a batch or, when b is nil, a lone event.
type newest struct {
	at units.Time
	b  *batch
}

const cacheSlots = 64

// slot is t's place in the cache (Fibonacci hashing).
func slot(t units.Time) int { return int(uint64(t) * 0x9E3779B97F4A7C15 >> 58) }

func (e *Engine) push(t units.Time, h Handler) {
	if t < e.now {
		panic(fmt.Sprintf("engine: event at %v scheduled from %v, in the past", t, e.now))
	}
	e.pending++
	c := &e.batches.cache[slot(t)]
	switch {
	case c.at != t: // the first event of its instant, as far as the cache knows
	case c.b != nil && !c.b.done && c.b.at == t: // the newest value of t is a batch that takes events
		c.b.events = append(c.b.events, h)
		return
	default: // open a batch behind the newest value of t
		b := e.batch(t)
		b.events = append(b.events, h)
		e.queue.Push(t, b)
		*c = newest{t, b}
		return
	}
	*c = newest{t, nil}
	e.queue.Push(t, h)
}

// batch is an empty batch at t, reused if one is free.
func (e *Engine) batch(t units.Time) *batch {
	var b *batch
	if k := len(e.batches.free); k > 0 {
		b, e.batches.free = e.batches.free[k-1], e.batches.free[:k-1]
	} else {
		b = new(batch)
	}
	b.at, b.done = t, false
	return b
}

// fireBatch fires b's events in order, those it gains while firing
// included, then frees it.
func (e *Engine) fireBatch(b *batch) {
	for i := 0; i < len(b.events); i++ {
		h := b.events[i]
		b.events[i] = nil // for the garbage collector
		e.fire(h)
	}
	b.done = true
	b.events = b.events[:0]
	e.batches.free = append(e.batches.free, b)
}

// dispatch fires h, a lone event or a batch.
func (e *Engine) dispatch(h Handler) {
	if b, ok := h.(*batch); ok {
		e.fireBatch(b)
	} else {
		e.fire(h)
	}
}
