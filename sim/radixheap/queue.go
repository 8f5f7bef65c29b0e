package radixheap

import (
	"math/bits"

	"paraplay/sim/units"
)

// Queue holds values by time. Bucket 0 holds the values at the last time
// taken, bucket i > 0 those whose time first differs from it in bit i−1.
// A push is an append; a pop takes bucket 0's front or, when it is empty,
// spreads the first non-empty bucket over the lower ones. Each bucket is
// a list in push order and spreading keeps that order, so values of one
// instant come out in the order they were pushed. Each value moves a few
// times at most, where a binary heap sifts it through log n levels. The
// zero value is an empty queue.
type Queue[T any] struct {
	last    units.Time // the time of the last value taken (buckets are relative to it)
	head    int        // values of bucket 0 before head are taken
	n       int        // values waiting
	buckets [65][]entry[T]
}

type entry[T any] struct {
	at units.Time
	v  T
}

// Len is the number of values waiting.
func (q *Queue[T]) Len() int { return q.n }

// Push adds v at t, which must not be below the time of the last value
// taken (the caller checks: the engine refuses events in the past).
func (q *Queue[T]) Push(t units.Time, v T) {
	b := bits.Len64(uint64(t ^ q.last))
	q.buckets[b] = append(q.buckets[b], entry[T]{t, v})
	q.n++
}

// Pop takes the earliest value, the first pushed among equals, and its
// time. The queue must not be empty.
func (q *Queue[T]) Pop() (units.Time, T) {
	if q.head == len(q.buckets[0]) {
		q.buckets[0], q.head = q.buckets[0][:0], 0
		q.spread()
	}
	b := q.buckets[0]
	e := b[q.head]
	b[q.head] = entry[T]{} // drop what v points to, for the garbage collector
	q.head++
	q.n--
	return e.at, e.v
}

// spread moves the first non-empty bucket's values, in order, into the
// buckets relative to their earliest time, which fills bucket 0.
func (q *Queue[T]) spread() {
	i := 1
	for len(q.buckets[i]) == 0 {
		i++
	}
	src := q.buckets[i]
	q.last = src[0].at
	for _, e := range src[1:] {
		q.last = min(q.last, e.at)
	}
	for k := range src {
		b := bits.Len64(uint64(src[k].at ^ q.last))
		q.buckets[b] = append(q.buckets[b], src[k])
		src[k] = entry[T]{}
	}
	q.buckets[i] = src[:0]
}
