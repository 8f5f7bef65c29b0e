package training

import (
	"fmt"
	"slices"
	"strings"

	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
	"paraplay/sim/topo"
	"paraplay/sim/units"
	"paraplay/sim/workload"
)

// The resihp recovery policy, after ResiHP (Ma et al., "Taming LLM
// Training Failures with Dynamic Hybrid Parallelism", 2026): a scheduler
// that acts on the workload-aware detector. On a fail-slow it flags, the
// layers are dealt out again over the pipeline stages by the GPUs'
// measured speeds (the balanced partition of hetero.go at the speeds the
// detector measured) and, when the batch's sequences vary, the sequences
// are dealt to the replicas by predicted cost; on a fail-stop, the job
// regroups its tensor-, pipeline- and data-parallel groups over the GPUs
// left (regroup.go) and redoes the lost step from the state the
// surviving replicas hold. Each re-plan costs its communicator rebuild
// (recovery.reconfigure_cost, on a regroup) and the transfer of the model
// state the new layout needs over the fabric (statexfer.go); both show on
// the timeline as a "replan" recovery step and as replanning states.

// adaptive is what the resihp policy keeps between iterations.
type adaptive struct {
	// cur is the layout the iterations run on.
	cur placement
	// router routes on the cluster's links (nil until a regroup).
	router *topo.Router
	// slowMult[c] is the compute-time multiplier the detector measured on
	// cluster GPU c (> 1 for a flagged GPU).
	slowMult map[int]float64
	// statics[c] lists the static memory cluster GPU c held, by stretch.
	statics map[int][]staticAt
}

// resihp reports whether the run uses the resihp policy.
func (d *driver) resihp() bool { return d.s.Recovery.Policy == scenario.PolicyResiHP }

// splitOf is an iteration of s with its layers dealt out to its model
// stages as Simulate deals them (a balanced partition included), or, with
// mult, balanced at those GPU speeds with at most cap layers a stage
// (0: no cap).
func splitOf(s scenario.Scenario, mult []float64, cap int) (*iteration, error) {
	tr, err := newIteration(s, nil)
	if err != nil {
		return nil, err
	}
	tr.groups()
	if mult != nil {
		tr.mult = mult
	}
	c := &tr.costs
	c.size(tr.stages)
	if err := c.splitLayers(); err != nil {
		return nil, err
	}
	if c.par.Partition == "balanced" || mult != nil {
		c.balance(tr.stageMult(), cap)
	}
	return tr, nil
}

// repartition is resihp's answer to the fail-slow the detector flagged in
// the iteration just run: each GPU's speed is measured as its predicted
// over its observed compute (1 unless the detector's threshold is
// crossed); the layers are dealt out again by the balanced partition at
// those speeds, and, when the split changes, the layers that change
// stage move before the next iteration.
func (d *driver) repartition(observed, predicted []units.Time) error {
	cur := d.cur
	mult := make([]float64, cur.s.NumGPUs())
	worst, worstAt := 1.0, -1
	for g := range mult {
		c := cur.at(g)
		mult[g] = 1
		if c < len(predicted) && predicted[c] > 0 {
			if r := float64(observed[c]) / float64(predicted[c]); r > PredictorThreshold {
				mult[g] = r
				d.slowMult[c] = r
				if r > worst {
					worst, worstAt = r, c
				}
			}
		}
	}
	now, err := splitOf(cur.s, nil, 0)
	if err != nil {
		return err
	}
	layers, err := d.balancedFit(cur.s, mult, slices.Max(now.layers))
	if err != nil || layers == nil || slices.Equal(layers, now.layers) {
		return err
	}
	next := cur
	next.gen++
	q := &next.s.Parallel
	q.LayersPerStage, q.Partition, q.FirstLastFewer = layers, "equal", 0
	detail := fmt.Sprintf("re-partition (GPU %d at %.2f× its predicted time): layers per stage %s → %s",
		worstAt, worst, counts(now.layers), counts(layers))
	end, err := d.replan(cur, next, d.now, 0, detail)
	if err != nil {
		return err
	}
	d.cur, d.now = next, end
	return nil
}

// rebalance deals a step's sequences (lengths[r][i], replica r's
// microbatch i) out again by predicted cost when the detector has measured
// slow GPUs: the cost of a microbatch is its FLOPs at its length
// (workload.StageFLOPs over the whole model, attention's quadratic term
// included), a replica's slowdown σ_r is its slowest stage's measured
// multiplier × layers over the largest stage's layers, and the greedy
// longest-first rule gives each microbatch, costliest first, to the
// replica whose finish (load + cost)·σ_r would be earliest, keeping every
// replica's microbatch count.
func (d *driver) rebalance(lengths [][]int) {
	if lengths == nil || len(d.slowMult) == 0 {
		return
	}
	tr, err := splitOf(d.cur.s, nil, 0)
	if err != nil || !tr.real {
		return
	}
	plan, most := d.cur.s.Parallel.Plan(), float64(slices.Max(tr.layers))
	sigma := make([]float64, len(lengths))
	for g := range d.cur.s.NumGPUs() {
		co := plan.Coord(g)
		if r := co.DP; r < len(sigma) {
			for _, k := range tr.stageOfDev[co.PP] {
				sigma[r] = max(sigma[r], max(1, d.slowMult[d.cur.at(g)])*float64(tr.layers[k])/most)
			}
		}
	}
	if slices.Max(sigma) == slices.Min(sigma) {
		return
	}
	var all []int
	for _, ls := range lengths {
		all = append(all, ls...)
	}
	slices.SortStableFunc(all, func(a, b int) int { return b - a })
	m, p := tr.model, tr.par
	load := make([]float64, len(lengths))
	for r := range lengths {
		lengths[r] = lengths[r][:0]
	}
	for _, l := range all {
		m.SeqLen = l
		c := workload.StageFLOPs(m, m.Layers, true, true, p.MicroBatchSize, 1, 1, workload.Recompute(p.Recompute)).Hardware()
		best := -1
		for r := range lengths {
			if len(lengths[r]) < cap(lengths[r]) && (best < 0 || (load[r]+c)*sigma[r] < (load[best]+c)*sigma[best]) {
				best = r
			}
		}
		lengths[best] = append(lengths[best], l)
		load[best] += c
	}
}

// balancedFit is the split of s's layers balanced at the measured
// multipliers mult that still fits its GPUs' memory: the balanced
// partition with a cap on the layers of a stage, lowered from no cap
// until the estimator (Estimator.Quick, the exact peak) finds the plan
// fits or needs no more than the current split does; nil when only the
// current split (whose largest stage holds most layers) fits.
func (d *driver) balancedFit(s scenario.Scenario, mult []float64, most int) ([]int, error) {
	est := NewEstimator()
	plain := onePlain(s)
	own, err := est.Quick(plain)
	if err != nil {
		return nil, err
	}
	for cap := 0; ; {
		tr, err := splitOf(s, mult, cap)
		if err != nil {
			return nil, err
		}
		layers := slices.Clone(tr.layers)
		plain.Parallel.LayersPerStage, plain.Parallel.Partition, plain.Parallel.FirstLastFewer = layers, "equal", 0
		if e, err := est.Quick(plain); err == nil && (!e.OOM() && !e.NearOOM() || e.PeakMemory <= own.PeakMemory) {
			return layers, nil
		}
		if cap = slices.Max(layers) - 1; cap < most {
			return nil, nil
		}
	}
}

// onePlain is s as one plain iteration, which the estimator takes.
func onePlain(s scenario.Scenario) scenario.Scenario {
	s.Name, s.Iterations, s.Faults = "", 1, nil
	s.Straggler, s.Data = scenario.Straggler{}, scenario.Data{SeqDist: "fixed"}
	s.Failures.Duration = 0
	return s
}

// counts prints layer counts as "6,6,6,6".
func counts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ",")
}

// regroup is resihp's answer to a fail-stop: after the heartbeat timeout
// the job takes the best layout on the GPUs neither stopped nor flagged
// slow (bestLayout), rebuilds its communicators, moves the model state
// the new layout needs from the surviving replicas, and redoes the
// interrupted step on the new layout. GPUs the new layout leaves out sit
// idle (dropped) until the end of the run.
func (d *driver) regroup(step int, victims []int, t, detect units.Time) (int, error) {
	for _, g := range victims {
		d.addState(timeline.State{GPU: g, Node: -1, State: timeline.StateFailed, Start: t, End: -1})
	}
	n := len(d.gpuOut)
	bad := make([]bool, n)
	probe := iterState{slow: d.slow, spare: d.spare}
	for c := range bad {
		bad[c] = d.gpuOut[c] || d.slowMult[c] > 1 && probe.speed(c, detect) < 1
	}
	next, err := d.bestLayout(bad)
	if err != nil {
		return 0, err
	}
	next.gen = d.cur.gen + 1
	for c := range n {
		in, was := next.local(c) >= 0, d.cur.local(c) >= 0 && d.running(c)
		switch {
		case !in && was && !d.gpuOut[c]:
			d.addState(timeline.State{GPU: c, Node: -1, State: timeline.StateDropped, Start: detect, End: -1})
			d.ends[c] = append(d.ends[c], detect)
		case in && !was:
			d.reopen(c, detect)
		}
	}
	detail := fmt.Sprintf("regroup %s → %s", layoutLabel(d.cur.s), layoutLabel(next.s))
	end, err := d.replan(d.cur, next, detect, d.s.Recovery.ReconfigureCost, detail)
	if err != nil {
		return 0, err
	}
	d.cur, d.now = next, end
	d.live = make([]bool, next.s.Parallel.DP)
	for r := range d.live {
		d.live[r] = true
	}
	return step, nil
}

// reopen ends, at t, the open dropped state of cluster GPU c, which a new
// layout takes back.
func (d *driver) reopen(c int, t units.Time) {
	for k, i := range d.open {
		if s := &d.out.States[i]; s.GPU == c && s.State == timeline.StateDropped {
			s.End = t
			d.open = slices.Delete(d.open, k, k+1)
			return
		}
	}
}

// replan charges a change of layout from old to next starting at at:
// rebuild (the communicators), then the model state next needs that its
// GPUs do not hold, sent over the cluster's fabric from the old layout's
// live GPUs. It records the transfer's messages, a "replan" recovery
// step and a replanning state on every GPU of next, each labelled with
// its place in next (replica and stage), and returns when training can
// resume.
func (d *driver) replan(old, next placement, at, rebuild units.Time, detail string) (units.Time, error) {
	from, err := holdings(old.s)
	if err != nil {
		return 0, err
	}
	to, err := holdings(next.s)
	if err != nil {
		return 0, err
	}
	m := mover{from: from, to: to, fromAt: old.at, toAt: next.at,
		gone: func(c int) bool { return d.gpuOut[c] }, node: func(c int) int { return d.out.GPUs[c].Node }}
	xfers, err := m.plan()
	if err != nil {
		return 0, err
	}
	start, bytes := at+rebuild, 0.0
	end := start
	if len(xfers) > 0 {
		t, _, err := trainingTopology(d.s)
		if err != nil {
			return 0, err
		}
		(&iterState{degraded: d.degradedLinks()}).degrade(t)
		tl, err := sendState(t, xfers)
		if err != nil {
			return 0, err
		}
		d.merge(tl, start)
		end = start + tl.End
		for _, x := range xfers {
			bytes += x[2]
		}
	}
	if rebuild > 0 {
		detail += fmt.Sprintf("; communicators rebuilt in %v", rebuild)
	}
	detail += fmt.Sprintf("; %.1f GB of model state over the fabric in %v", bytes/1e9, end-start)
	d.out.Recovery = append(d.out.Recovery, timeline.Recovery{Kind: "replan", GPU: -1, Start: at, End: end, Detail: detail})
	if end > at {
		plan := next.s.Parallel.Plan()
		for g := range next.s.NumGPUs() {
			co := plan.Coord(g)
			d.addState(timeline.State{GPU: next.at(g), Node: -1, State: timeline.StateReplan, Start: at, End: end,
				Group: fmt.Sprintf("r%d·s%d", co.DP, co.PP)})
		}
	}
	return end, nil
}
