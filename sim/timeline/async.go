package timeline

import (
	"paraplay/sim/units"
)

// Async is the record of a run of several data-parallel iterations whose
// workers do not all-reduce in lockstep: a parameter server under BSP, ASP,
// SSP or DSSP, or local SGD. It says when each worker ran each iteration
// and how far its model was behind.
type Async struct {
	// Mode is "bsp", "asp", "ssp", "dssp" or "local-sgd".
	Mode string `json:"mode"`
	// Bound is the configured staleness bound: s under SSP, s_L under DSSP,
	// the period H under local SGD; −1 when nothing bounds the lag (ASP).
	Bound int `json:"bound"`
	// Workers lists the GPU ids of the workers, in worker order.
	Workers []int `json:"workers"`
	// Servers lists the ids of the parameter-server hosts (GPUs of Role
	// "ps"); empty for local SGD.
	Servers []int `json:"servers,omitempty"`
	// Speeds is each worker's speed factor, in worker order.
	Speeds []float64 `json:"speeds"`
	// Bytes is the bytes all workers and servers sent over the run.
	Bytes units.Bytes `json:"bytes"`
	// Iterations has one entry per worker and iteration, sorted by Start,
	// then worker.
	Iterations []WorkerIteration `json:"iterations"`
}

// WorkerIteration is one worker's iteration.
type WorkerIteration struct {
	// Worker is the worker's index in Async.Workers.
	Worker int `json:"worker"`
	// Index is k, the iteration's number for this worker, from 0.
	Index int `json:"index"`
	// Start is when the worker began it: its pull from the servers, or its
	// first compute under local SGD. End is when its push (or its part of
	// the averaging) ended.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
	// Wait is how long the worker was held before Start by the
	// synchronisation (a barrier, the staleness bound), after it was
	// otherwise ready.
	Wait units.Time `json:"wait"`
	// Lag is the version lag at Start: how many iterations this worker is
	// ahead of the slowest worker's pushed iterations (k − min over workers
	// of the iterations pushed); under local SGD, the local steps since its
	// model was last averaged.
	Lag int `json:"lag"`
	// Staleness is the number of updates from other workers the server
	// applied between this worker's read of the model and its own update
	// (0 under BSP, whose round is one update; 0 under local SGD).
	Staleness int `json:"staleness"`
	// Limit is the largest Lag the synchronisation allowed at Start: s
	// under SSP, s_L plus what the DSSP controller granted, 0 under BSP;
	// −1 when unbounded.
	Limit int `json:"limit"`
}

// LagAt returns worker w's version lag at instant t: the Lag of the last
// iteration it started by t (0 before the first).
func (a *Async) LagAt(w int, t units.Time) (lag, limit int) {
	limit = a.Bound
	for _, it := range a.Iterations {
		if it.Start > t {
			break
		}
		if it.Worker == w {
			lag, limit = it.Lag, it.Limit
		}
	}
	return lag, limit
}

// Check checks the record against the run: known workers and servers,
// iterations inside the run in order, lags within their limits.
func (a *Async) Check(tl *Timeline) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, errorf(format, args)) }
	if len(a.Speeds) != len(a.Workers) {
		bad("%d speeds for %d workers", len(a.Speeds), len(a.Workers))
	}
	for i, v := range a.Speeds {
		if !(v > 0) {
			bad("worker %d's speed is %g", i, v)
		}
	}
	for i, g := range a.Workers {
		if !tl.isGPU(g) || tl.GPUs[g].Role != "" {
			bad("worker %d is vertex %d, not a GPU", i, g)
		}
	}
	for j, g := range a.Servers {
		if !tl.isGPU(g) || tl.GPUs[g].Role != "ps" {
			bad("server %d is vertex %d, not a parameter-server host", j, g)
		}
	}
	next := make([]int, len(a.Workers))
	for i, it := range a.Iterations {
		switch {
		case it.Worker < 0 || it.Worker >= len(a.Workers):
			bad("iterations[%d]: worker %d does not exist", i, it.Worker)
			continue
		case it.Index != next[it.Worker]:
			bad("iterations[%d]: worker %d's iteration %d comes after iteration %d", i, it.Worker, it.Index, next[it.Worker]-1)
		case it.Start < 0 || it.End < it.Start || it.End > tl.End || it.Wait < 0:
			bad("iterations[%d]: bad interval [%v, %v] (wait %v) in a run of %v", i, it.Start, it.End, it.Wait, tl.End)
		case it.Limit >= 0 && it.Lag > it.Limit:
			bad("iterations[%d]: worker %d started iteration %d with lag %d over its limit %d", i, it.Worker, it.Index, it.Lag, it.Limit)
		case i > 0 && it.Start < a.Iterations[i-1].Start:
			bad("iterations[%d]: starts at %v, before the previous one", i, it.Start)
		}
		next[it.Worker]++
	}
	return errs
}
