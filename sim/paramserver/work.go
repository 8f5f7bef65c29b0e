package paramserver

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// Work bounds a parameter-server run of n workers, S servers and I
// iterations: per worker and iteration a forward, a backward and up to two
// compression spans, 4·n·I spans; a pull and a push per server, 2·n·S·I
// transfers.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	n, srv, it := float64(s.NumGPUs()), float64(max(s.Sync.Servers, 1)), float64(max(s.Iterations, 1))
	spans := budget.Count{N: 4 * n * it, Why: fmt.Sprintf("4 × %g workers × %g iterations", n, it), Field: "iterations", Fix: "lower iterations or use fewer GPUs"}
	tr := budget.Count{N: 2 * n * srv * it, Why: fmt.Sprintf("2 × %g workers × %g sync.servers × %g iterations", n, srv, it),
		Field: "sync.servers", Fix: "lower sync.servers or iterations"}
	return budget.Of(budget.Items{Spans: spans, Transfers: tr, GPUs: s.NumGPUs() + s.Sync.Servers})
}
