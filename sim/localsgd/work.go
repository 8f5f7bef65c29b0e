package localsgd

import (
	"fmt"
	"math"

	"paraplay/sim/budget"
	"paraplay/sim/nccltest"
	"paraplay/sim/scenario"
)

// Work bounds a local-SGD run of n workers, I iterations and L layer
// groups averaged every P iterations: per worker, iteration and group a
// forward, a backward and a compression span, 3·n·I·L spans; each group is
// averaged ⌈I/P⌉ times, each averaging the transfers of the scenario's
// collective (nccltest.Transfers).
func (Strategy) Work(s scenario.Scenario) budget.Work {
	n, it := float64(s.NumGPUs()), float64(max(s.Iterations, 1))
	layers, period := float64(max(s.Sync.Layers, 1)), float64(max(s.Sync.Period, 1))
	spans := budget.Count{N: 3 * n * it * layers, Why: fmt.Sprintf("3 × %g workers × %g iterations × %g sync.layers", n, it, layers),
		Field: "iterations", Fix: "lower iterations or sync.layers"}
	avg := layers * math.Ceil(it/period)
	tr := nccltest.Transfers(s).Times(avg, fmt.Sprintf("%g averagings (sync.layers × iterations / sync.period)", avg))
	return budget.Of(budget.Items{Spans: spans, Transfers: tr, GPUs: s.NumGPUs(), Ports: budget.MeshPorts(&s)})
}
