package timeline

import (
	"fmt"

	"paraplay/sim/units"
)

// The kinds of span of a reinforcement-learning run (Timeline.RLHF). The
// span's Label names the model, e.g. "actor generate".
const (
	// Generate is rollout generation: the actor's prefill and decode.
	Generate Kind = "generate"
	// Score is a forward pass over the rollouts that trains nothing: the
	// reference's log-probabilities, the reward model's score, the
	// critic's values.
	Score Kind = "score"
	// Train is a training pass (forward, backward, optimizer) of the actor
	// or the critic.
	Train Kind = "train"
	// Reshard is the actor's weights moving from their training layout to
	// their generation layout on the same GPUs.
	Reshard Kind = "reshard"
	// WeightSync is the trained actor's weights sent from the training
	// pool to the generation pool.
	WeightSync Kind = "weight-sync"
)

// RLHF is the record of a reinforcement-learning run: where the four
// models sit, the rollout queue between generation and training, the
// policy version each batch was generated with, and what the GPUs cost.
type RLHF struct {
	// Placement is "co-located", "interleaved" or "disaggregated".
	Placement string `json:"placement"`
	// Pools are the groups of GPUs, each with the models it holds.
	Pools []Pool `json:"pools"`
	// QueueCapacity is the most batches the rollout queue holds; 0 means
	// unbounded. Only a disaggregated run has a queue.
	QueueCapacity int `json:"queue_capacity"`
	// Staleness is η, how many policy versions the generator may run
	// ahead of the trainer; −1 when unbounded.
	Staleness int `json:"staleness"`
	// SyncEvery is k: the trainer sends the actor's weights to the
	// generator after every k steps (disaggregated only).
	SyncEvery int `json:"sync_every"`
	// Queue is the queue's depth over time, piecewise constant: each point
	// holds from its At until the next; empty without a queue.
	Queue []QueuePoint `json:"queue,omitempty"`
	// Steps has one entry per RL step, in order.
	Steps []RLStep `json:"steps"`
}

// Pool is a group of GPUs of one type with the models they hold.
type Pool struct {
	// Name says what the pool does, e.g. "generation pool".
	Name string `json:"name"`
	// GPU is the GPU preset's name, e.g. "h20".
	GPU string `json:"gpu"`
	// GPUs lists the pool's GPU ids.
	GPUs []int `json:"gpus"`
	// Models names the models whose phases run on the pool.
	Models []string `json:"models"`
	// PricePerHour is the cost of one of its GPUs for an hour, in dollars.
	PricePerHour float64 `json:"price_per_hour"`
	// PeakMemory is the estimated peak memory of one of its GPUs (model
	// states, generation weights and KV cache; no activations), and
	// Capacity its HBM.
	PeakMemory units.Bytes `json:"peak_memory"`
	Capacity   units.Bytes `json:"capacity"`
}

// OOM reports whether the pool's estimated peak exceeds its GPUs' HBM.
func (p Pool) OOM() bool { return p.Capacity > 0 && p.PeakMemory > p.Capacity }

// QueuePoint is the rollout queue's depth from instant At on.
type QueuePoint struct {
	// At is when the depth starts to hold.
	At units.Time `json:"at"`
	// Depth is the number of generated batches not yet taken by training.
	Depth int `json:"depth"`
}

// RLStep is one RL step: one batch generated, scored and trained on.
type RLStep struct {
	// Index is the step's number, from 0.
	Index int `json:"index"`
	// GenStart and GenEnd bound the batch's generation.
	GenStart units.Time `json:"gen_start"`
	GenEnd   units.Time `json:"gen_end"`
	// TrainStart and TrainEnd bound its scoring and training.
	TrainStart units.Time `json:"train_start"`
	TrainEnd   units.Time `json:"train_end"`
	// Version is the policy version that generated the batch: how many
	// training steps had reached the generator when it started.
	Version int `json:"version"`
}

// Staleness is how many versions behind the trained policy the step's
// batch was: Index − Version.
func (s RLStep) Staleness() int { return s.Index - s.Version }

// QueueAt is the rollout queue's depth at instant t.
func (r *RLHF) QueueAt(t units.Time) int {
	d := 0
	for _, p := range r.Queue {
		if p.At > t {
			break
		}
		d = p.Depth
	}
	return d
}

// MaxQueue is the largest depth the queue reached.
func (r *RLHF) MaxQueue() int {
	d := 0
	for _, p := range r.Queue {
		d = max(d, p.Depth)
	}
	return d
}

// CostAt is what the GPUs of every pool cost from 0 to t, in dollars:
// Σ GPUs × price per hour × t.
func (r *RLHF) CostAt(t units.Time) float64 {
	var perHour float64
	for _, p := range r.Pools {
		perHour += float64(len(p.GPUs)) * p.PricePerHour
	}
	return perHour * t.Seconds() / 3600
}

// StepsDoneAt is how many steps finished training by instant t.
func (r *RLHF) StepsDoneAt(t units.Time) int {
	n := 0
	for _, s := range r.Steps {
		if s.TrainEnd <= t {
			n++
		}
	}
	return n
}

// Check checks the record against the run: the pools' GPUs exist, the
// queue's depth is a series inside the run within the queue's capacity,
// and the steps come in order inside the run, each batch trained after it
// was generated with a policy no newer than the step and no staler than
// the bound.
func (r *RLHF) Check(tl *Timeline) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, errorf(format, args)) }
	for i, p := range r.Pools {
		for _, g := range p.GPUs {
			if !tl.isGPU(g) {
				bad("pools[%d]: GPU %d does not exist", i, g)
			}
		}
		if p.PeakMemory < 0 || p.Capacity < 0 || !(p.PricePerHour >= 0) {
			bad("pools[%d]: peak %v of %v at $%g an hour", i, p.PeakMemory, p.Capacity, p.PricePerHour)
		}
	}
	if r.QueueCapacity < 0 || r.Staleness < -1 || r.SyncEvery < 0 {
		bad("queue capacity %d, staleness %d, sync every %d", r.QueueCapacity, r.Staleness, r.SyncEvery)
	}
	var prev units.Time
	for i, q := range r.Queue {
		if err := checkInstant(q.At, prev, tl.End); err != nil {
			bad("queue[%d]: %v", i, err)
		}
		prev = q.At
		if q.Depth < 0 || (r.QueueCapacity > 0 && q.Depth > r.QueueCapacity) {
			bad("queue[%d]: depth %d outside [0, %d]", i, q.Depth, r.QueueCapacity)
		}
	}
	for i, st := range r.Steps {
		if err := checkStep(i, st, tl.End); err != nil {
			bad("steps[%d]: %v", i, err)
		} else if r.Staleness >= 0 && st.Staleness() > r.Staleness {
			bad("steps[%d]: %d versions stale, over the bound %d", i, st.Staleness(), r.Staleness)
		}
	}
	return errs
}

// checkStep checks one RL step: its number, its two intervals inside
// [0, end] one after the other, and its policy version.
func checkStep(i int, st RLStep, end units.Time) error {
	switch {
	case st.Index != i:
		return fmt.Errorf("step %d out of order", st.Index)
	case st.GenStart < 0 || st.GenEnd < st.GenStart || st.TrainStart < st.GenEnd || st.TrainEnd < st.TrainStart || st.TrainEnd > end:
		return fmt.Errorf("generation [%v, %v] and training [%v, %v] out of order or outside the run", st.GenStart, st.GenEnd, st.TrainStart, st.TrainEnd)
	case st.Version < 0 || st.Version > st.Index:
		return fmt.Errorf("generated with policy version %d", st.Version)
	}
	return nil
}
