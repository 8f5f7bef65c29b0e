package partitioned

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
	"paraplay/sim/training"
)

// Work bounds a run by its two simulated iterations (training's bounds)
// and their copies: the spans and the trace of a sub-model's iteration
// k·pre_steps times and the full model's full_steps times; the events
// and the memory of each once, plus the copies' spans.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	sub, full, err := phases(s)
	if err != nil {
		return budget.Work{}
	}
	c := SettingsOf(&s)
	w1, w3 := training.Strategy{}.Work(sub), training.Strategy{}.Work(full)
	if w1.Refused != nil {
		return w1
	}
	if w3.Refused != nil {
		return w3
	}
	k1 := float64(c.Parts * c.PreSteps)
	k3 := float64(c.FullSteps)
	why1 := fmt.Sprintf("%d partitioned.parts × %d partitioned.pre_steps", c.Parts, c.PreSteps)
	why3 := fmt.Sprintf("%d partitioned.full_steps", c.FullSteps)
	spans := w1.Spans.Times(k1, why1).Plus(w3.Spans.Times(k3, why3))
	copies := budget.Of(budget.Items{Spans: spans, GPUs: s.NumGPUs()})
	return budget.Work{Events: w1.Events.Plus(w3.Events), Spans: spans,
		TraceBytes: w1.TraceBytes.Times(k1, why1).Plus(w3.TraceBytes.Times(k3, why3)),
		Memory:     w1.Memory.Plus(w3.Memory).Plus(copies.Memory)}
}
