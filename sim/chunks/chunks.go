package chunks

import (
	"runtime"
	"sync"
)

// Min is the number of items from which For splits a pass: below it, the
// goroutines would cost more than they save.
const Min = 1 << 16

// For is the number of ranges to split a pass over n items into: 1 (run
// it in place) below Min items or on one core, otherwise four per core,
// so that a core slowed by other work holds up a quarter of its share,
// not all of it.
func For(n int) int {
	if procs := runtime.GOMAXPROCS(0); procs > 1 && n >= Min {
		return 4 * procs
	}
	return 1
}

// Ranges calls f(k, lo, hi) for each of the n contiguous ranges [lo, hi)
// that split [0, size) in order (k = 0..n−1), each on a goroutine of its
// own, and returns when every call has.
func Ranges(size, n int, f func(k, lo, hi int)) {
	var wg sync.WaitGroup
	for k := range n {
		lo, hi := size*k/n, size*(k+1)/n
		wg.Go(func() { f(k, lo, hi) })
	}
	wg.Wait()
}
