package validate

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/workload"
)

// trainingKind simulates one iteration of a training scenario and reports
// its achieved TFLOP/s per GPU as Narayanan et al. 2021 (SC'21) count them
// in Table 1: the FLOPs of their equation (3), with full activation
// recomputation, 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), over the iteration
// time and the GPUs. The scenario is given whole, as YAML, so a row shows
// exactly what ran.
func trainingKind() Kind {
	return Kind{
		Name:     "training-tflops",
		What:     "one training iteration; achieved TFLOP/s per GPU counted with Narayanan et al. 2021's equation (3)",
		Required: []string{"scenario"},
		Optional: []string{"budget"},
		Simulate: simulateTraining,
	}
}

func simulateTraining(config map[string]string) (float64, error) {
	s, err := scenario.Parse([]byte(config["scenario"]))
	if err != nil {
		return 0, fmt.Errorf("config.scenario: %w", err)
	}
	if s.Strategy != "" && s.Strategy != "training" {
		return 0, fmt.Errorf("config.scenario: strategy %q; want a training scenario", s.Strategy)
	}
	limits := budget.CLI
	if b := config["budget"]; b != "" {
		if limits, err = budget.Parse(b); err != nil {
			return 0, fmt.Errorf("config.budget: %w", err)
		}
	}
	m, err := s.Model.Resolve()
	if err != nil {
		return 0, fmt.Errorf("config.scenario: model: %w", err)
	}
	if s.Model.IsSynthetic() || m.Layers == 0 {
		return 0, fmt.Errorf("config.scenario: model: want a real model (a preset), not synthetic op times")
	}
	tl, err := run.SimulateMirroredWithin(s, limits) // read only through its summary
	if err != nil {
		return 0, fmt.Errorf("config.scenario: %w", err)
	}
	it := tl.Summarize().IterationSeconds
	if !(it > 0) {
		return 0, fmt.Errorf("config.scenario: the iteration took no time")
	}
	p := s.Parallel
	batch := p.DP * p.Microbatches * p.MicroBatchSize
	flops := workload.NarayananRecomputeFLOPs(batch, m.SeqLen, m.Layers, m.Hidden, m.Vocab)
	return flops / (it * float64(s.NumGPUs())) / 1e12, nil
}
