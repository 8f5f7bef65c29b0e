package splitlearn

import (
	"fmt"

	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// Work bounds a run of R rounds, n clients and h compute nodes (its
// Config, FromScenario):
//
//	split:  spans 2R(n + h), transfers 2R(n + h − 1)
//	fedavg: spans 2R·n·local_steps, transfers 2R·n
//
// The messages share links (ConcurrentMessages): when the compute node's
// port is slower than the n clients' links together, each of a round's n
// uploads is re-armed by every other's start and end, so events are
// bounded by 4·spans + transfers·(4 + 2n) (measured 1.06 M for 512
// clients on 100 Mb/s, 3.98 × fewer); otherwise by
// budget.EventsPerItem·(spans + transfers).
func (Strategy) Work(s scenario.Scenario) budget.Work {
	c, err := FromScenario(&s)
	if err != nil {
		return budget.Work{}
	}
	r, n, h := float64(c.Rounds), float64(len(c.Devices)), float64(c.Hops)
	var spans, tr budget.Count
	if c.Mode == ModeFedAvg {
		steps := float64(max(c.LocalSteps, 1))
		spans = budget.Count{N: 2 * r * n * steps, Why: fmt.Sprintf("2 × %g rounds × %g clients × %g local steps", r, n, steps),
			Field: "iterations", Fix: "lower iterations (the rounds), split.clients or split.local_steps"}
		tr = budget.Count{N: 2 * r * n, Why: fmt.Sprintf("2 × %g rounds × %g clients", r, n), Field: "iterations", Fix: "lower iterations (the rounds) or split.clients"}
	} else {
		spans = budget.Count{N: 2 * r * (n + h), Why: fmt.Sprintf("2 × %g rounds × (%g clients + %g hops)", r, n, h),
			Field: "iterations", Fix: "lower iterations (the rounds) or split.clients"}
		tr = budget.Count{N: 2 * r * (n + h - 1), Why: spans.Why, Field: "iterations", Fix: spans.Fix}
	}
	var ev budget.Count // zero: budget.EventsPerItem a span and a message
	if float64(c.ServerBandwidth) < n*float64(max(c.Uplink, c.Downlink)) {
		ev = budget.Count{N: 4*spans.N + tr.N*(4+2*n), Why: fmt.Sprintf("%s, each message re-armed by %g clients", tr.Why, n),
			Field: "split.clients", Fix: "lower split.clients or iterations, or raise split.server_bandwidth"}
	}
	return budget.Of(budget.Items{Spans: spans, Transfers: tr, Events: ev, GPUs: len(c.Devices) + c.Hops})
}
