//go:build !js

package splitlearn

import (
	"fmt"

	"paraplay/sim/scenario"
	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// Caption is the caption of a split-learning or federated-averaging
// demo: the first round's simulated length beside its closed form (package
// splitlearn's doc), and for split learning the largest compute node's
// memory beside 16·P + 4·n·(in + Σ kept) summed from the model's layer
// table here, with what one hop would need when the chain has more:
//
//	split:  T = max_i(F_i + U_i) + Σ_k (f_k + b_k) + Σ_{k<h−1} 2·H_k + max_i(D_i + B_i)
//	fedavg: T = max_i(D_i + L·(F_i + B_i) + U_i)
//
// U, D and H are α + bytes / rate on the message's link.
func (Strategy) Caption(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) ([]strategy.Part, error) {
	c, err := FromScenario(&s)
	if err != nil {
		return nil, err
	}
	sp := tl.Split
	if sp == nil || len(sp.Rounds) == 0 {
		return nil, fmt.Errorf("split-learning run without rounds")
	}
	p := NewPlan(c)
	sim := sp.Rounds[0].End - sp.Rounds[0].Start
	round := func(formula string, want units.Time) strategy.Part {
		return strategy.Compare(strategy.Check{Name: "round", Formula: formula, Source: "package splitlearn's doc", Tolerance: 1e-9},
			"round: simulated {}; "+formula+" = {}", float64(sim), float64(want), strategy.Nanoseconds)
	}
	parts := []strategy.Part{strategy.Figure("run {}", strategy.Nanos(sum.Iteration))}
	if c.Mode == ModeFedAvg {
		var want units.Time
		for i := range c.Devices {
			local := units.Time(c.LocalSteps) * (p.Forward[i] + p.Backward[i])
			want = max(want, msg(c.ClientLatency, p.Down, c.Downlink)+local+msg(c.ClientLatency, p.Up, c.Uplink))
		}
		return append(parts, round("max(D + L(F+B) + U)", want),
			strategy.Figure("each client sends {} a round (the model)", strategy.Bytes(p.Up, strategy.Size))), nil
	}
	var up, down, server units.Time
	for i := range c.Devices {
		up = max(up, p.Forward[i]+msg(c.ClientLatency, p.Up, c.Uplink))
		down = max(down, msg(c.ClientLatency, p.Down, c.Downlink)+p.Backward[i])
	}
	for k := range p.Nodes {
		server += p.NodeForward[k] + p.NodeBackward[k]
	}
	for _, b := range p.Hop {
		server += 2 * msg(c.HopLatency, b, c.HopBandwidth)
	}
	parts = append(parts, round("max(F+U) + server + max(D+B)", up+server+down),
		strategy.Figure("each client sends {} a round", strategy.Bytes(p.Up, strategy.Size)))
	return append(parts, splitMemory(c, p, tl)), nil
}

// splitMemory is the largest compute node's peak beside 16·P + 4·n·(in +
// Σ kept), with what one hop would need when the chain has more.
func splitMemory(c Config, p Plan, tl *timeline.Timeline) strategy.Part {
	var simPeak, formula units.Bytes
	for k, g := range tl.Split.Compute {
		simPeak = max(simPeak, tl.Memory[g].Peak)
		formula = max(formula, layerMemory(c.Model, p.Nodes[k], p.Samples))
	}
	part := strategy.Compare(strategy.Check{Name: "compute node memory", Formula: "16P + 4n(in + Σ kept)",
		Source: "fp32 weights, gradients and Adam's two moments; fp32 activations kept for the backward", Tolerance: 1e-9},
		"largest compute node: simulated {}; 16P + 4n(in + Σ kept) = {}", float64(simPeak), float64(formula), strategy.GiB)
	if c.Hops > 1 {
		part.Text += " (one hop: {})"
		part.Values = append(part.Values, strategy.Value{V: float64(layerMemory(c.Model, [2]int{c.Cut, len(c.Model.Layers)}, p.Samples)), Unit: strategy.GiB})
	}
	if simPeak > c.Compute.HBM {
		part.Text += ", over the " + c.Compute.Name + "'s {}: out of memory"
		part.Values = append(part.Values, strategy.Value{V: float64(c.Compute.HBM), Unit: strategy.GiB})
	}
	return part
}

// msg is an uncontended message's α + bytes / rate, rounded once.
func msg(alpha units.Time, b units.Bytes, bw units.Bandwidth) units.Time {
	return alpha + units.Round(float64(b)/float64(bw))
}

// layerMemory is 16 bytes per parameter of layers r plus 4 bytes per
// element, for each of n samples, of their input and each layer's kept
// output, summed here from the layer table.
func layerMemory(m Model, r [2]int, n int) units.Bytes {
	var params, elems int64
	for _, l := range m.Layers[r[0]:r[1]] {
		params += l.Params
		elems += l.Stored
	}
	elems += m.In(r[0])
	return units.Bytes(16*params + 4*int64(n)*elems)
}
