package timeline

import (
	"paraplay/sim/units"
)

// AsyncSummary is the headline of a parameter-server or local-SGD run.
type AsyncSummary struct {
	// Mode is the synchronisation ("bsp", …, "local-sgd").
	Mode string `json:"mode"`
	// Iterations is the number of worker iterations run (all workers).
	Iterations int `json:"iterations"`
	// Throughput is Iterations over the run time, per second.
	Throughput float64 `json:"iterations_per_s"`
	// Bytes is what the run sent over the network.
	Bytes units.Bytes `json:"bytes"`
	// MeanLag and MaxLag summarise the version lag over all iterations.
	MeanLag float64 `json:"mean_lag"`
	MaxLag  int     `json:"max_lag"`
	// MeanStaleness is the mean number of other workers' updates applied
	// between an iteration's read of the model and its own update.
	MeanStaleness float64 `json:"mean_staleness"`
	// Workers has one entry per worker.
	Workers []WorkerAsync `json:"workers"`
}

// WorkerAsync is one worker's share of an asynchronous run.
type WorkerAsync struct {
	Name  string  `json:"name"`
	Speed float64 `json:"speed"`
	// Iterations is how many it ran; Wait is the time it was held by the
	// synchronisation in all.
	Iterations int        `json:"iterations"`
	Wait       units.Time `json:"wait_ns"`
	// MeanLag and MaxLag are its version lag.
	MeanLag float64 `json:"mean_lag"`
	MaxLag  int     `json:"max_lag"`
}

// Report is the Async part of the summary: an *AsyncSummary.
func (a *Async) Report(tl *Timeline, _ *Summary) Report {
	s := &AsyncSummary{Mode: a.Mode, Iterations: len(a.Iterations), Bytes: a.Bytes, Workers: make([]WorkerAsync, len(a.Workers))}
	for i, g := range a.Workers {
		if tl.isGPU(g) {
			s.Workers[i].Name = tl.GPUs[g].Name
		}
		if i < len(a.Speeds) {
			s.Workers[i].Speed = a.Speeds[i]
		}
	}
	var lag, stale int
	for _, it := range a.Iterations {
		if it.Worker < 0 || it.Worker >= len(s.Workers) {
			continue // Validate reports it
		}
		w := &s.Workers[it.Worker]
		w.Iterations++
		w.Wait += it.Wait
		w.MeanLag += float64(it.Lag)
		w.MaxLag = max(w.MaxLag, it.Lag)
		lag += it.Lag
		stale += it.Staleness
		s.MaxLag = max(s.MaxLag, it.Lag)
	}
	for i := range s.Workers {
		if w := &s.Workers[i]; w.Iterations > 0 {
			w.MeanLag /= float64(w.Iterations)
		}
	}
	if n := len(a.Iterations); n > 0 {
		s.MeanLag, s.MeanStaleness = float64(lag)/float64(n), float64(stale)/float64(n)
	}
	if tl.End > 0 {
		s.Throughput = float64(s.Iterations) / tl.End.Seconds()
	}
	return s
}
