package validate

import (
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/budget"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
	"paraplay/sim/workload"
)

// trainingKind simulates one iteration of a training scenario and reports
// its achieved TFLOP/s per GPU as Narayanan et al. 2021 (SC'21) count them
// in Table 1: the FLOPs of their equation (3), with full activation
// recomputation, 96·B·s·l·h²·(1 + s/(6h) + V/(16·l·h)), over the iteration
// time and the GPUs; or, with figure: iteration_s, the iteration time in
// seconds, as Korthikanti et al. 2022 report it in their Table 5; or
// (figure: tokens_per_gpu_s) the tokens trained per second and GPU, the
// global batch's tokens over the iteration and the GPUs, as DeepSeek-AI
// 2024 report GPU hours per trillion tokens. The
// scenario is given whole, as YAML, so a row shows exactly what ran.
func trainingKind() Kind {
	return Kind{
		Name:     "training-tflops",
		What:     "one training iteration; achieved TFLOP/s per GPU counted with Narayanan et al. 2021's equation (3), or (figure: iteration_s) its time in seconds, or (figure: tokens_per_gpu_s) tokens per second and GPU",
		Required: []string{"scenario"},
		Optional: []string{"budget", "figure"},
		Simulate: simulateTraining,
	}
}

// trainingFigures are the figures a training row can report.
var trainingFigures = []string{"tflops", "iteration_s", "tokens_per_gpu_s"}

// parseTraining reads a training row's scenario and budget.
func parseTraining(config map[string]string) (scenario.Scenario, budget.Limits, error) {
	s, err := scenario.Parse([]byte(config["scenario"]))
	if err != nil {
		return s, budget.Limits{}, fmt.Errorf("config.scenario: %w", err)
	}
	if s.Strategy != "" && s.Strategy != "training" {
		return s, budget.Limits{}, fmt.Errorf("config.scenario: strategy %q; want a training scenario", s.Strategy)
	}
	limits := budget.CLI
	if b := config["budget"]; b != "" {
		if limits, err = budget.Parse(b); err != nil {
			return s, budget.Limits{}, fmt.Errorf("config.budget: %w", err)
		}
	}
	return s, limits, nil
}

func simulateTraining(config map[string]string) (float64, error) {
	fig := config["figure"]
	if fig == "" {
		fig = "tflops"
	}
	if !slices.Contains(trainingFigures, fig) {
		return 0, fmt.Errorf("config.figure: %q; want one of %s", fig, strings.Join(trainingFigures, ", "))
	}
	s, limits, err := parseTraining(config)
	if err != nil {
		return 0, err
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
	if fig == "iteration_s" {
		return it, nil
	}
	p := s.Parallel
	batch := p.DP * p.Microbatches * p.MicroBatchSize
	if fig == "tokens_per_gpu_s" {
		return float64(batch) * float64(m.SeqLen) / (it * float64(s.NumGPUs())), nil
	}
	flops := workload.NarayananRecomputeFLOPs(batch, m.SeqLen, m.Layers, m.Hidden, m.Vocab)
	return flops / (it * float64(s.NumGPUs())) / 1e12, nil
}
