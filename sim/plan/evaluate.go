package plan

import (
	"fmt"
	"slices"

	"paraplay/sim/budget"
	"paraplay/sim/run"
	"paraplay/sim/taskgraph"
	"paraplay/sim/training"
	"paraplay/sim/units"
)

// BoundMemory is how far out of memory a plan may be and still get a
// lower bound on its time: 1.5 GPU memories, the right edge of the
// scatter (scene.PlanScatter), beyond which a plan is only counted. The
// bound is most of the screen's work, and at frontier scale most plans are
// far out of memory.
const BoundMemory = 1.5

// screen validates p's scenario and estimates its memory and work bound
// (training.Estimator.Screen validates the scenario first; a plan over
// BoundMemory gets no bound). A plan that does not fit is out of memory; a
// ZeRO-1 plan that fits is dominated by its ZeRO-2 twin (see the package
// documentation).
func screen(p *Plan, est *training.Estimator) {
	if t := p.twin; t != nil && t.err == nil && t.Status == OutOfMemory {
		// Overlap changes op times, not bytes: out of memory as its twin.
		p.Estimate = training.Estimate{PeakMemory: t.Estimate.PeakMemory, Capacity: t.Estimate.Capacity}
		p.Status = OutOfMemory
		return
	}
	over := BoundMemory
	if p.Scenario.Parallel.ZeRO == 1 {
		over = 0 // dominated if it fits, and drawn at its twin's time: no bound needed
	}
	e, err := est.Screen(p.Scenario, over)
	if err != nil {
		p.err = err
		return
	}
	p.Estimate, p.Fits, p.NearOOM = e, !e.OOM(), e.NearOOM()
	switch {
	case !p.Fits:
		p.Status = OutOfMemory
	case p.Scenario.Parallel.ZeRO == 1:
		p.Status = Dominated
	}
}

// simulate runs p at the given fidelity and records its metrics.
func simulate(p *Plan, fidelity string) {
	s := p.Scenario
	s.Fidelity = fidelity
	// Mirrored: the planner reads the run only through its summary and
	// memory, which a mirrored timeline gives as the full one does
	// (run.SimulateMirroredWithin), without laying out every replica.
	tl, err := run.SimulateMirroredWithin(s, budget.CLI)
	if err != nil {
		p.err = fmt.Errorf("%s run: %w", fidelity, err)
		return
	}
	sum := tl.Summarize()
	m := &Metrics{Fidelity: tl.Fidelity, Iteration: tl.End, MFU: sum.MFU, Bubble: sum.BubbleFraction,
		Compute: sum.Compute, Exposed: sum.ExposedBy}
	m.cost, m.set, _, _ = sum.CostIteration()
	for _, mem := range tl.Memory {
		m.PeakMemory = max(m.PeakMemory, mem.Peak)
		m.OOM = m.OOM || mem.OOM()
		m.NearOOM = m.NearOOM || mem.NearOOM()
	}
	if fidelity == taskgraph.Detailed {
		p.Detailed = m
	} else {
		p.Result = m
	}
}

// explain sets p's Reason and Why against the best plan (nil when no plan
// fits), and says so when a plan that fits is in the memory warning zone.
func explain(p, best *Plan) {
	because(p, best)
	if p.NearOOM && p.Status != OutOfMemory {
		// In GiB to a tenth, as the table's peak/GPU column prints it.
		gib := func(b units.Bytes) float64 { return float64(b) / float64(units.GiB) }
		p.Why += fmt.Sprintf("; peak memory %.1f GiB is over 90%% of the GPU's %.1f GiB, where fragmentation may still run it out of memory",
			gib(p.Estimate.PeakMemory), gib(p.Estimate.Capacity))
	}
}

// because sets p's Reason and Why against the best plan.
func because(p, best *Plan) {
	switch p.Status {
	case Best:
		p.Reason, p.Why = "", "the fastest plan that fits"
	case OutOfMemory:
		p.Reason = "oom"
		p.Why = fmt.Sprintf("out of memory: needs %v per GPU, the GPU has %v", p.Estimate.PeakMemory, p.Estimate.Capacity)
	case Dominated:
		p.Reason = "dominated"
		p.Why = "takes the same time as the same plan with ZeRO-2 (the same collectives in this model) and needs more memory"
	case Simulated:
		k, d := largestGap(simulatedParts(p), simulatedParts(best))
		p.Reason = reason(p, best, k)
		p.Why = fmt.Sprintf("%s: %v slower than the best, %v of it %s", p.Reason, round(p.Iteration()-best.Iteration()),
			roundTime(d), describe(p, best, p.Reason))
	case Unsimulated:
		p.Reason = "budget"
		if best == nil {
			p.Why = fmt.Sprintf("budget: not simulated, the simulation budget ran out first; at least %v", round(p.Estimate.LowerBound))
			return
		}
		p.Why = fmt.Sprintf("budget: not simulated, the simulation budget ran out first; at least %v, so at most %v faster than the best",
			round(p.Estimate.LowerBound), round(max(0, best.Iteration()-p.Estimate.LowerBound)))
	case Bounded:
		k, d := largestGap(boundParts(p), boundParts(best))
		p.Reason = reason(p, best, k)
		p.Why = fmt.Sprintf("%s: cannot beat the best (%v) even with free messages: at least %v, %v %s",
			p.Reason, round(best.Iteration()), round(p.Estimate.LowerBound), roundTime(d), describe(p, best, p.Reason))
	}
}

// simulatedParts splits a simulated iteration into compute, each kind of
// exposed communication, and the idle rest (the bubble), in seconds.
func simulatedParts(p *Plan) map[string]float64 {
	m := p.Result
	parts := map[string]float64{"compute": m.Compute.Seconds()}
	rest := m.Iteration.Seconds() - parts["compute"]
	for k, v := range m.Exposed {
		parts[k] = v
		rest -= v
	}
	parts["bubble"] = max(0, rest)
	return parts
}

// boundParts splits a lower bound the same way: the busiest device's
// compute, its blocking communication (tp, cp or ep), its wait for its
// neighbours, its data-parallel collectives beyond its ops (dp), its
// optimizer step and ZeRO's gather after it (zero).
func boundParts(p *Plan) map[string]float64 {
	e := p.Estimate
	return map[string]float64{"compute": e.Compute.Seconds(), blockingKind(p): e.Blocking.Seconds(),
		"bubble": e.Wait.Seconds(), "optimizer": e.Optimizer.Seconds(), "dp": e.Stream.Seconds(), "zero": e.Gather.Seconds()}
}

// blockingKind is the communication that blocks p's compute: tensor
// parallelism's all-reduces, else ring attention's exchanges, else the
// experts' all-to-alls.
func blockingKind(p *Plan) string {
	switch par := p.Scenario.Parallel; {
	case par.TP > 1:
		return "tp"
	case par.CP > 1:
		return "cp"
	}
	return "ep"
}

// largestGap is the part where a exceeds b the most, and by how much
// (seconds); ties go to the part first in alphabetical order.
func largestGap(a, b map[string]float64) (string, float64) {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	best, gap := "", -1.0
	for _, k := range keys {
		if d := a[k] - b[k]; d > gap {
			best, gap = k, d
		}
	}
	return best, gap
}

// reason is the one-word reason for part k: tensor-parallel communication
// is "tp-cross-node" when p's tensor-parallel group spans servers and the
// best plan's does not.
func reason(p, best *Plan, k string) string {
	if k == "tp" && crossNode(p) && !crossNode(best) {
		return "tp-cross-node"
	}
	return k
}

// crossNode reports whether p's tensor-parallel group spans servers (tp is
// innermost in the rank order, so it does when it exceeds a server).
func crossNode(p *Plan) bool {
	return p.Scenario.Parallel.TP > p.Scenario.Cluster.GPUsPerNode
}

// describe says in words what part of the time reason names.
func describe(p, best *Plan, reason string) string {
	switch reason {
	case "compute":
		if r, rb := p.Scenario.Parallel.Recompute, best.Scenario.Parallel.Recompute; r != rb {
			return fmt.Sprintf("more compute (recompute %s against %s)", r, rb)
		}
		return "more compute per GPU"
	case "bubble":
		return "more idle time in the pipeline bubble"
	case "tp":
		return "more tensor-parallel communication on the critical path"
	case "tp-cross-node":
		return "tensor-parallel communication across nodes"
	case "cp":
		return "more exposed context-parallel (ring attention) communication"
	case "ep":
		return "more expert-parallel all-to-all communication"
	case "pp":
		return "more exposed pipeline sends"
	case "dp":
		return "more exposed gradient reduction"
	case "zero":
		return "more exposed ZeRO parameter gathers"
	case "optimizer":
		return "a longer optimizer step"
	}
	return reason
}

// roundTime rounds seconds to a readable time.
func roundTime(s float64) units.Time { return round(units.Time(s * 1e9)) }

// round keeps a time's first few digits: whole milliseconds above a
// second, whole microseconds above a millisecond.
func round(t units.Time) units.Time {
	switch {
	case t >= units.Second:
		return t / units.Millisecond * units.Millisecond
	case t >= units.Millisecond:
		return t / units.Microsecond * units.Microsecond
	}
	return t
}
