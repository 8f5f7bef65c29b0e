//go:build js

package opgraph

import (
	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// Work is, in the browser, a looser bound than the host's (work.go), from
// the fields alone: with m = max(graph.microbatches, n) on n GPUs, at most
// 2m·n spans and 2m·n + 2n² transfers (the sends between every pair of
// stages and each stage's ring), whatever the split the browser runs.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	y := SettingsOf(&s)
	n := float64(s.NumGPUs())
	m := max(float64(y.Microbatches), n)
	c := budget.Count{N: 2 * m * n, Why: "2 × graph.microbatches × the GPUs", Field: section + ".microbatches", Fix: "lower graph.microbatches or the GPUs"}
	t := c
	t.N += 2 * n * n
	return budget.Of(budget.Items{Spans: c, Transfers: t, GPUs: s.NumGPUs(), Ops: c.N + 256})
}
