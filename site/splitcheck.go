package site

import (
	"fmt"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/splitlearn"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// splitMetrics is the caption of a split-learning or federated-averaging
// demo: the first round's simulated length beside its closed form (package
// splitlearn's doc), and for split learning the largest compute node's
// memory beside 16·P + 4·n·(in + Σ kept) summed from the model's layer
// table here, with what one hop would need when the chain has more:
//
//	split:  T = max_i(F_i + U_i) + Σ_k (f_k + b_k) + Σ_{k<h−1} 2·H_k + max_i(D_i + B_i)
//	fedavg: T = max_i(D_i + L·(F_i + B_i) + U_i)
//
// U, D and H are α + bytes / rate on the message's link.
func splitMetrics(s scenario.Scenario, tl *timeline.Timeline, sum timeline.Summary) (string, error) {
	c, err := splitlearn.FromScenario(&s)
	if err != nil {
		return "", err
	}
	sp := tl.Split
	if sp == nil || len(sp.Rounds) == 0 {
		return "", fmt.Errorf("split-learning run without rounds")
	}
	p := splitlearn.NewPlan(c)
	sim := sp.Rounds[0].End - sp.Rounds[0].Start
	parts := []string{"run " + roundTime(sum.Iteration)}
	if c.Mode == splitlearn.ModeFedAvg {
		var want units.Time
		for i := range c.Devices {
			local := units.Time(c.LocalSteps) * (p.Forward[i] + p.Backward[i])
			want = max(want, msg(c.ClientLatency, p.Down, c.Downlink)+local+msg(c.ClientLatency, p.Up, c.Uplink))
		}
		parts = append(parts, fmt.Sprintf("round: simulated %s; max(D + L(F+B) + U) = %s", roundTime(sim), roundTime(want)),
			fmt.Sprintf("each client sends %s a round (the model)", bytesText(p.Up)))
		return strings.Join(parts, " · "), nil
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
	parts = append(parts, fmt.Sprintf("round: simulated %s; max(F+U) + server + max(D+B) = %s", roundTime(sim), roundTime(up+server+down)),
		fmt.Sprintf("each client sends %s a round", bytesText(p.Up)))
	var simPeak, formula units.Bytes
	for k, g := range sp.Compute {
		simPeak = max(simPeak, tl.Memory[g].Peak)
		formula = max(formula, layerMemory(c.Model, p.Nodes[k], p.Samples))
	}
	mem := fmt.Sprintf("largest compute node: simulated %s; 16P + 4n(in + Σ kept) = %s", gib(simPeak), gib(formula))
	if c.Hops > 1 {
		mem += fmt.Sprintf(" (one hop: %s)", gib(layerMemory(c.Model, [2]int{c.Cut, len(c.Model.Layers)}, p.Samples)))
	}
	if simPeak > c.Compute.HBM {
		mem += fmt.Sprintf(", over the %s's %s: out of memory", c.Compute.Name, gib(c.Compute.HBM))
	}
	return strings.Join(append(parts, mem), " · "), nil
}

// msg is an uncontended message's α + bytes / rate, rounded once.
func msg(alpha units.Time, b units.Bytes, bw units.Bandwidth) units.Time {
	return alpha + units.Round(float64(b)/float64(bw))
}

// layerMemory is 16 bytes per parameter of layers r plus 4 bytes per
// element, for each of n samples, of their input and each layer's kept
// output, summed here from the layer table.
func layerMemory(m splitlearn.Model, r [2]int, n int) units.Bytes {
	var params, elems int64
	for _, l := range m.Layers[r[0]:r[1]] {
		params += l.Params
		elems += l.Stored
	}
	elems += m.In(r[0])
	return units.Bytes(16*params + 4*int64(n)*elems)
}
