package sppo

import (
	"paraplay/sim/budget"
	"paraplay/sim/scenario"
)

// Work bounds a run of S stages and C chunks: a forward and a backward
// span per stage and chunk, 2·S·C; messages between stages, 2·(S−1)·C;
// an offload and a reload per stage and chunk, 2·S·C.
func (Strategy) Work(s scenario.Scenario) budget.Work {
	y := SettingsOf(&s)
	S, C := float64(s.NumGPUs()), float64(y.Chunks)
	spans := budget.Count{N: 2 * S * C, Why: "2 × stages × sppo.chunks", Field: "sppo.chunks", Fix: "lower sppo.chunks"}
	xfers := budget.Count{N: 2*(S-1)*C + 2*S*C, Why: "4 × stages × sppo.chunks", Field: "sppo.chunks", Fix: "lower sppo.chunks"}
	return budget.Of(budget.Items{Spans: spans, Transfers: xfers, GPUs: 2 * s.NumGPUs()})
}
