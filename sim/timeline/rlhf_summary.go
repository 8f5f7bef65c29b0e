package timeline

import (
	"paraplay/sim/units"
)

// RLHFSummary is the headline of a reinforcement-learning run.
type RLHFSummary struct {
	// Placement is the run's placement of the four models.
	Placement string `json:"placement"`
	// Steps is the number of RL steps; StepTime the run time over them.
	Steps    int        `json:"steps"`
	StepTime units.Time `json:"step_time_ns"`
	// Throughput is steps per second over the whole run.
	Throughput float64 `json:"steps_per_s"`
	// Phases is the GPU-time of each phase kind summed over GPUs, so a
	// reader sees where the GPU-hours went.
	Phases map[Kind]units.Time `json:"phases_gpu_ns"`
	// MaxQueue is the rollout queue's peak depth; MeanStaleness and
	// MaxStaleness the policy versions the batches lagged by.
	MaxQueue      int     `json:"max_queue"`
	MeanStaleness float64 `json:"mean_staleness"`
	MaxStaleness  int     `json:"max_staleness"`
	// Cost is what the GPUs cost over the run, in dollars; CostPerStep
	// that over Steps.
	Cost        float64 `json:"cost_dollars"`
	CostPerStep float64 `json:"cost_per_step_dollars"`
	// Pools are the run's pools with their estimated peak memory.
	Pools []Pool `json:"pools"`
}

// Report is the RLHF part of the summary: an *RLHFSummary.
func (r *RLHF) Report(tl *Timeline, _ *Summary) Report {
	s := &RLHFSummary{Placement: r.Placement, Steps: len(r.Steps), Phases: map[Kind]units.Time{},
		MaxQueue: r.MaxQueue(), Cost: r.CostAt(tl.End), Pools: r.Pools}
	for _, sp := range tl.Spans {
		s.Phases[sp.Kind] += sp.End - sp.Start
	}
	stale := 0
	for _, st := range r.Steps {
		stale += st.Staleness()
		s.MaxStaleness = max(s.MaxStaleness, st.Staleness())
	}
	if s.Steps > 0 {
		s.MeanStaleness = float64(stale) / float64(s.Steps)
		s.StepTime = tl.End / units.Time(s.Steps)
		s.CostPerStep = s.Cost / float64(s.Steps)
	}
	if tl.End > 0 {
		s.Throughput = float64(s.Steps) / tl.End.Seconds()
	}
	return s
}
