package engine

import (
	"paraplay/sim/radixheap"
	"paraplay/sim/units"
)

// instants is the engine's event queue: a list per instant, in scheduling
// order, and a radix heap of the lists by their instant. A large
// collective schedules millions of events at a few instants per step (all
// of a step's messages leave, clear their latency and arrive together),
// so most events are an append to a list a small cache finds, and a read
// from it: the radix heap, which moved each event two or three times
// between its buckets, now moves one key per instant (a fifth of a
// 1,024-GPU ring's run went into it).
//
// Events of one instant fire in the order they were scheduled: a list
// fires whole before the next one of its instant, and an event joins the
// newest list of its instant or, when the cache has lost that list, a new
// one behind it. The cache can only hold the newest list of an instant:
// a list enters it when it is made, in the slot of its instant.
type instants struct {
	keys  radixheap.Queue[int32] // list ids by instant, in the order made
	lists [][]Handler            // by id; the events of each list, in scheduling order
	at    []units.Time           // by id: the list's instant, or −1 once it has fired
	free  []int32                // ids of fired lists, for reuse
	cache [cacheSlots]int32      // by slot of an instant: a list id, or −1 (made by reset)
	cur   int32                  // the list firing, or −1
	head  int                    // events of cur already taken
	n     int                    // events waiting
	ready bool                   // cache is set up
}

const cacheSlots = 64

// slot is t's place in the cache (Fibonacci hashing).
func slot(t units.Time) int { return int(uint64(t) * 0x9E3779B97F4A7C15 >> 58) }

// Len is the number of events waiting.
func (q *instants) Len() int { return q.n }

// Push schedules h at t, which is not before the last instant taken.
func (q *instants) Push(t units.Time, h Handler) {
	if !q.ready {
		q.ready, q.cur = true, -1
		for i := range q.cache {
			q.cache[i] = -1
		}
	}
	s := slot(t)
	id := q.cache[s]
	if id < 0 || q.at[id] != t {
		id = q.make(t)
		q.cache[s] = id
	}
	q.lists[id] = append(q.lists[id], h)
	q.n++
}

// make opens a new list at t behind any other of t.
func (q *instants) make(t units.Time) int32 {
	var id int32
	if k := len(q.free); k > 0 {
		id, q.free = q.free[k-1], q.free[:k-1]
		q.at[id] = t
	} else {
		id = int32(len(q.lists))
		q.lists = append(q.lists, nil)
		q.at = append(q.at, t)
	}
	q.keys.Push(t, id)
	return id
}

// Pop takes the next event and its instant. The queue must not be empty.
func (q *instants) Pop() (units.Time, Handler) {
	for q.cur < 0 || q.head == len(q.lists[q.cur]) {
		if q.cur >= 0 { // fired: drop its handlers for the collector, reuse it
			l := q.lists[q.cur]
			clear(l)
			q.lists[q.cur], q.at[q.cur] = l[:0], -1
			q.free = append(q.free, q.cur)
		}
		_, q.cur = q.keys.Pop()
		q.head = 0
	}
	h := q.lists[q.cur][q.head]
	q.head++
	q.n--
	return q.at[q.cur], h
}
