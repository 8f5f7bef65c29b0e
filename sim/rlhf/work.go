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
// transfers, no task graph): at most phasesPerStep spans per GPU and
// step, 8·G·steps, and memory for pricing and the record, 16 KiB +
// 4 KiB·G·steps.
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
	w.Events = budget.Count{}
	// Pricing the models and the run's record (steps, queue, pools),
	// measured as TotalAlloc over Simulate: 12.7 KB on 2 GPUs × 2 steps,
	// 19.5 KB on 4 × 2, 32 KB on 4 × 3, 61 KB on 16 × 2 and 114 KB on
	// 16 × 6 (about 120 KiB on 4 × 2 while each of the four models'
	// look-ups rebuilt the model catalog).
	w.Memory.N = 16<<10 + 4<<10*g*steps
	return w
}
