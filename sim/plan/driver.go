package plan

import (
	"sync"

	"paraplay/sim/taskgraph"
	"paraplay/sim/training"
)

// Run searches cfg's plans with up to workers simulations at a time (at
// least 1), calling progress (if not nil) from the calling goroutine as the
// search advances. The result is the same for any number of workers: the
// parallel parts (screening, each batch's simulations, the detailed runs)
// are independent runs whose results are gathered before the next
// sequential decision.
func Run(cfg Config, workers int, progress func(Progress)) (*Result, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	workers = max(1, workers)
	report := func() {
		if progress != nil {
			progress(s.Progress())
		}
	}
	// Screening: every plan on its own, each worker with its own estimator
	// (an estimator caches topologies and schedules and is not shared).
	ests := make([]*training.Estimator, workers)
	for i := range ests {
		ests[i] = training.NewEstimator()
	}
	const chunk = 512
	for lo := 0; lo < len(s.all); lo += chunk {
		hi := min(lo+chunk, len(s.all))
		parallel(workers, hi-lo, func(w, i int) { screen(s.all[lo+i], ests[w]) })
		s.screened, s.done = hi, s.done+hi-lo
		report()
	}
	s.startSimulating()
	for {
		s.batch = s.nextBatch()
		s.done++
		if len(s.batch) == 0 {
			break
		}
		parallel(workers, len(s.batch), func(_, i int) { simulate(s.batch[i], taskgraph.Analytic) })
		s.bpos, s.done = len(s.batch), s.done+len(s.batch)
		s.closeBatch()
		report()
	}
	s.batch, s.bpos = nil, 0
	s.startDetailing()
	parallel(workers, len(s.detail), func(_, i int) { simulate(s.detail[i], taskgraph.Detailed) })
	s.dpos, s.done = len(s.detail), s.done+len(s.detail)
	s.finish()
	report()
	return s.Result()
}

// parallel calls f(worker, i) for i in 0..n−1 on up to workers goroutines;
// worker is the goroutine's number, 0..workers−1.
func parallel(workers, n int, f func(worker, i int)) {
	if workers <= 1 || n <= 1 {
		for i := 0; i < n; i++ {
			f(0, i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(w, i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
