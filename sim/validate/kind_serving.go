package validate

import (
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/budget"
	"paraplay/sim/inference"
	"paraplay/sim/run"
	"paraplay/sim/scenario"
)

// Figures a serving row can report, from the run's summary.
var servingFigures = []string{"tokens_per_s", "ttft_ms", "tpot_ms"}

// servingKind runs a serving scenario (strategy inference: a static batch,
// every request arriving at once, as a benchmark of a fixed batch size
// runs it) and reports one figure of its summary: output tokens/s over the
// whole run (prefill included), the mean time to first token or the mean
// time per output token, in milliseconds. The scenario is given whole, as
// YAML, so a row shows exactly what ran.
func servingKind() Kind {
	return Kind{
		Name:     "serving",
		What:     "a serving run (static batch); output tokens/s, time to first token or time per output token",
		Required: []string{"scenario", "figure"},
		Optional: []string{"budget"},
		Simulate: simulateServing,
	}
}

func simulateServing(config map[string]string) (float64, error) {
	fig := config["figure"]
	if !slices.Contains(servingFigures, fig) {
		return 0, fmt.Errorf("config.figure: %q; want one of %s", fig, strings.Join(servingFigures, ", "))
	}
	s, err := scenario.Parse([]byte(config["scenario"]))
	if err != nil {
		return 0, fmt.Errorf("config.scenario: %w", err)
	}
	if s.Strategy != inference.Name {
		return 0, fmt.Errorf("config.scenario: strategy %q; want %s", s.Strategy, inference.Name)
	}
	limits := budget.CLI
	if b := config["budget"]; b != "" {
		if limits, err = budget.Parse(b); err != nil {
			return 0, fmt.Errorf("config.budget: %w", err)
		}
	}
	tl, err := run.SimulateWithin(s, limits)
	if err != nil {
		return 0, fmt.Errorf("config.scenario: %w", err)
	}
	is := tl.Summarize().Inference
	if is == nil {
		return 0, fmt.Errorf("config.scenario: the run has no serving summary")
	}
	v := map[string]float64{"tokens_per_s": is.TokensPerSecond, "ttft_ms": is.TTFT.Seconds() * 1e3, "tpot_ms": is.TPOT.Seconds() * 1e3}[fig]
	if !(v > 0) {
		return 0, fmt.Errorf("config.figure: %s is %v; the run produced no such figure", fig, v)
	}
	return v, nil
}
