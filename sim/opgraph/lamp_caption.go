//go:build !js

package opgraph

import (
	"fmt"

	"paraplay/sim/strategy"
	"paraplay/sim/timeline"
	"paraplay/sim/units"
)

// lampParts are a LAMP run's caption parts (lamp.go): the stages and the
// memory of each, M_s = 16·P_s + m·(outputs + received), beside what one
// GPU would need; the bytes a microbatch sends across stage boundaries
// and the share of them that are skip connections (a tensor read by other
// than the next operator); and the iteration beside GPipe's flow shop on
// free links, 3·(Σf + (m − 1)·max f), the difference being the links.
func lampParts(g Graph, r Run, sum timeline.Summary, ideal bool) []strategy.Part {
	gpu, _ := r.check(g)
	n, m, b := r.GPUs, r.Microbatches, r.Batch/r.Microbatches
	ends := lampStages(g, n, b, m, gpu)
	text, vals := fmt.Sprintf("LAMP's %d stages (ops", n), []strategy.Value(nil)
	for i, e := range ends {
		if i > 0 {
			text += ","
		}
		if text += fmt.Sprintf(" %d", stageStart(ends, i)); e > stageStart(ends, i) {
			text += fmt.Sprintf("–%d", e)
		}
	}
	text += ") hold"
	var total, most units.Time
	for i, e := range ends {
		var f units.Time
		for _, o := range g.Ops[stageStart(ends, i) : e+1] {
			f += forwardTime(o, b, gpu)
		}
		total, most = total+f, max(most, f)
		if i > 0 {
			text += ","
		}
		text += " {}"
		vals = append(vals, strategy.Bytes(stageMemory(g, stageStart(ends, i), e, b, m), strategy.GiB))
	}
	text += " of the GPU's {}; one GPU would need {}"
	vals = append(vals, strategy.Bytes(gpu.HBM, strategy.GiB), strategy.Bytes(stageMemory(g, 0, len(g.Ops)-1, b, m), strategy.GiB))
	var all, skip units.Bytes
	cross := crossBytes(g, ends, b)
	for t := range ends {
		for _, j := range received(g, stageStart(ends, t), ends[t]) {
			if !g.readsOnlyNext(j, stageStart(ends, t), ends[t]) {
				skip += outBytes(g.Ops[j], b)
			}
		}
		for s := range t {
			all += cross[s][t]
		}
	}
	want := 3 * (total + units.Time(m-1)*most)
	last := strategy.Figure("on free links 3(Σf + (m−1)·max f) = {}: the links add {}", strategy.Nanos(want), strategy.Nanos(sum.Iteration-want))
	if ideal {
		last = strategy.Compare(strategy.Check{Name: "LAMP's GPipe iteration", Formula: "3(Σf + (m−1)·max f)",
			Source: "GPipe's flow shop of m identical microbatches through the stages, backward twice the forward", Tolerance: 1e-4},
			"simulated {}; 3(Σf + (m−1)·max f) = {}", float64(sum.Iteration), float64(want), strategy.Nanoseconds)
	}
	return []strategy.Part{strategy.Figure(text, vals...),
		strategy.Figure("a microbatch sends {} across stage boundaries forward (its gradients as much back), {} of it skip connections",
			strategy.Bytes(all, strategy.Size), strategy.Bytes(skip, strategy.Size)), last}
}

// readsOnlyNext says whether operators lo..hi read operator j only as
// operator j+1 (the main chain), not as a skip.
func (g Graph) readsOnlyNext(j, lo, hi int) bool {
	for i := lo; i <= hi; i++ {
		if i != j+1 && contains(g.Ops[i].Inputs, j) {
			return false
		}
	}
	return true
}
