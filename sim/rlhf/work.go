package rlhf

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// phasesPerStep bounds the spans one GPU gets in one RLHF step:
// generation, the reward, reference and critic passes, the actor's and
// the critic's training, the weight sync, and a wait.
const phasesPerStep = 8

// Work bounds an RLHF run, which is priced analytically (no events, no
// transfers): at most phasesPerStep spans per GPU and step, 8·G·steps,
// and memory for pricing and the record, 128 KiB + 2 KiB·G·steps.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	c, err := FromScenario(&s)
	if err != nil {
		return budget.Work{}
	}
	g, steps := float64(max(c.GPUs, 1)), float64(max(c.Steps, 1))
	spans := budget.Count{N: phasesPerStep * g * steps, Why: fmt.Sprintf("%d × %g GPUs × %g steps", phasesPerStep, g, steps),
		Field: "iterations", Fix: "lower the steps or the GPUs"}
	w := budget.Of(budget.Items{Spans: spans, GPUs: c.GPUs})
	// An analytic run queues no events, so neither their count nor their
	// bytes belong to it.
	w.Memory.N -= budget.EventBytes * w.Events.N
	w.Events = budget.Count{}
	// Pricing the models and the run's record (steps, queue, pools):
	// measured ≈ 120 KiB on four GPUs and two steps.
	w.Memory.N += 128<<10 + 2<<10*g*steps
	return w
}
