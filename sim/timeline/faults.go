package timeline

import (
	"fmt"

	"paraplay/sim/units"
)

// GPU and link states a fault puts them in. A GPU with no state record at
// an instant is healthy.
const (
	// StateSlow: the GPU computes at Factor of its speed (fail-slow).
	StateSlow = "slow"
	// StateFailed: the GPU has stopped (fail-stop, preemption).
	StateFailed = "failed"
	// StateHung: the GPU is alive but stuck waiting on a failed peer in a
	// collective, until the heartbeat timeout declares the peer dead.
	StateHung = "hung"
	// StateRestarting: the job is being restarted from its checkpoint.
	StateRestarting = "restarting"
	// StateCheckpoint: the GPU is writing its part of a checkpoint.
	StateCheckpoint = "checkpoint"
	// StateDropped: the GPU's replica was dropped by elastic recovery.
	StateDropped = "dropped"
	// StateDegraded: a link runs at Factor of its bandwidth.
	StateDegraded = "degraded"
)

// State is a stretch of time a GPU (or a node's links) spends in a fault
// or recovery state; the scene draws it over the GPU.
type State struct {
	// GPU is the GPU id, or −1 for a link state.
	GPU int `json:"gpu"`
	// Node is the node of a link state (its network links), else −1.
	Node int `json:"node"`
	// State is one of the State* constants.
	State string `json:"state"`
	// Factor is the share of speed or bandwidth kept (slow, degraded).
	Factor float64 `json:"factor,omitempty"`
	// Start and End bound it; End ≥ Start.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
}

// Iteration is one training iteration of a multi-iteration run, with what
// the two fail-slow detectors said about it.
type Iteration struct {
	// Index counts the iterations started, redone ones included.
	Index int `json:"index"`
	// Step is the training step it computes: a redo repeats a step.
	Step int `json:"step"`
	// Start and End bound it; an aborted iteration ends at the failure.
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
	// Aborted: a GPU stopped during it and its work was lost.
	Aborted bool `json:"aborted,omitempty"`
	// Redo: it repeats a step lost to a failure.
	Redo bool `json:"redo,omitempty"`
	// Replicas is the number of data-parallel replicas that ran it.
	Replicas int `json:"replicas"`
	// Tokens it trained on (0 if aborted).
	Tokens float64 `json:"tokens"`
	// Predicted is the workload-aware prediction of its time: the same
	// batch (its sequence lengths) on healthy GPUs, without jitter.
	Predicted units.Time `json:"predicted"`
	// Median is the median observed time of the iterations before it
	// (0 for the first): the naive detector's reference.
	Median units.Time `json:"median"`
	// NaiveFlag: the naive detector fired (observed > 1.2 × Median).
	NaiveFlag bool `json:"naive_flag,omitempty"`
	// PredictorFlag: the workload-aware detector fired: some GPU
	// computed more than 1.1 × the time predicted for its share of the
	// batch (per GPU, so that a slow GPU hidden behind a replica with
	// longer sequences is still caught).
	PredictorFlag bool `json:"predictor_flag,omitempty"`
	// SlowGPU is the GPU the predictor flagged (the one furthest over its
	// prediction), or −1. The GPUs of a tensor- or context-parallel group
	// compute in lockstep, so all of them show a member's slowdown and the
	// lowest id is named.
	SlowGPU int `json:"slow_gpu"`
	// SlowRatio is that GPU's observed over predicted compute time.
	SlowRatio float64 `json:"slow_ratio,omitempty"`
	// Imbalance is the slowest replica's compute over the mean replica's
	// (1 = balanced): what variable-length batches cost.
	Imbalance float64 `json:"imbalance"`
}

// Observed is the iteration's measured time.
func (it Iteration) Observed() units.Time { return it.End - it.Start }

// Recovery is one step of the recovery after a failure, for the caption
// and the summary.
type Recovery struct {
	// Kind is "fail", "detect", "restart", "redo", "drop" or "checkpoint".
	Kind string `json:"kind"`
	// GPU is the failed GPU it is about (−1: all).
	GPU int `json:"gpu"`
	// Start and End bound it (End = Start for an instant).
	Start units.Time `json:"start"`
	End   units.Time `json:"end"`
	// Detail says it in words, e.g. "heartbeat timeout 20ms".
	Detail string `json:"detail"`
}

// StateAt is GPU gpu's fault state at instant t ("" when healthy) and its
// factor; the latest-starting state wins.
func (tl *Timeline) StateAt(gpu int, t units.Time) (string, float64) {
	var st string
	var f float64
	var from units.Time = -1
	for _, s := range tl.States {
		if s.GPU == gpu && s.Start <= t && (t < s.End || (t == s.End && s.End == tl.End)) && s.Start >= from {
			st, f, from = s.State, s.Factor, s.Start
		}
	}
	return st, f
}

// checkStates checks the fault and recovery states, a range of the core:
// each on an existing GPU (or −1 for a link state) inside the run.
func (tl *Timeline) checkStates() []error {
	var errs []error
	for i, s := range tl.States {
		if (s.GPU >= 0 && !tl.isGPU(s.GPU)) || s.GPU < -1 || s.End < s.Start || s.Start < 0 || s.End > tl.End {
			errs = append(errs, fmt.Errorf("states[%d]: GPU %d, [%v, %v] outside the run", i, s.GPU, s.Start, s.End))
		}
	}
	return errs
}

// trainingRecord is a training run's own part of the record, a view over
// its typed fields: Training, Iterations and Recovery.
type trainingRecord struct{}

// Check checks the training record: figures that cannot be negative, the
// iterations in order inside the run, the recovery steps inside the run.
func (trainingRecord) Check(tl *Timeline) []error {
	var errs []error
	if tr := tl.Training; tr != nil {
		if !(tr.Tokens >= 0 && tr.ModelFLOPs >= 0 && tr.HardwareFLOPs >= tr.ModelFLOPs && tr.PeakFLOPS >= 0) || tr.Chunks < 1 {
			errs = append(errs, fmt.Errorf("%g tokens, %g model and %g hardware FLOPs, peak %g FLOP/s, %d chunks",
				tr.Tokens, tr.ModelFLOPs, tr.HardwareFLOPs, tr.PeakFLOPS, tr.Chunks))
		}
	}
	var prev units.Time
	for i, it := range tl.Iterations {
		if it.Index != i || it.End < it.Start || it.Start < prev || it.End > tl.End {
			errs = append(errs, fmt.Errorf("iterations[%d]: iteration %d [%v, %v] out of order or outside the run", i, it.Index, it.Start, it.End))
		}
		if it.SlowGPU != -1 && !tl.isGPU(it.SlowGPU) {
			errs = append(errs, fmt.Errorf("iterations[%d]: slow GPU %d does not exist", i, it.SlowGPU))
		}
		prev = it.End
	}
	for i, r := range tl.Recovery {
		if (r.GPU != -1 && !tl.isGPU(r.GPU)) || r.Start < 0 || r.End < r.Start || r.End > tl.End {
			errs = append(errs, fmt.Errorf("recovery[%d]: %s of GPU %d [%v, %v] outside the run", i, r.Kind, r.GPU, r.Start, r.End))
		}
	}
	return errs
}

// Report is the iterations with their verdicts and the recovery steps.
func (trainingRecord) Report(tl *Timeline, _ *Summary) Report {
	return iterationsReport{tl.Iterations, tl.Recovery}
}

// iterationsReport is a multi-iteration or faulty run's part of the
// summary; it lives in Summary.Iterations and Summary.Recovery.
type iterationsReport struct {
	Iterations []Iteration
	Recovery   []Recovery
}
