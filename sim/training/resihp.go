package training

import (
	"fmt"
	"slices"
	"strconv"

	"paraplay/sim/nccltest"
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
// detector measured, within the GPUs' memory) and, when the batch's
// sequences vary, the sequences are dealt to the replicas by predicted
// cost; on a fail-stop, the job regroups its tensor-, pipeline- and
// data-parallel groups over the GPUs left (regroup.go) and redoes the
// lost step from the state the surviving replicas hold. Each re-plan
// costs its communicator rebuild (recovery.reconfigure_cost, on a
// regroup) and the transfer of the model state the new layout needs over
// the fabric (statexfer.go); both show on the timeline as a "replan"
// recovery step and as replanning states. It acts in runs with a faults
// list (which checkResiHP vets); straggler noise alone re-plans nothing.

// adaptive is what the resihp policy keeps between iterations.
type adaptive struct {
	// cur is the layout the iterations run on.
	cur placement
	// router routes on the cluster's links (nil until a regroup).
	router *topo.Router
	// slowMult[c] is the compute-time multiplier the detector measured on
	// cluster GPU c (> 1 for a flagged GPU).
	slowMult map[int]float64
	// sigma[r] is replica r's slowdown after a re-partition (rebalance).
	sigma []float64
	// statics[c] lists the static memory cluster GPU c held, by stretch.
	statics [][]staticAt
	// protocol is the NCCL protocol the first iteration priced its
	// messages with ("" for none): the run's links are recorded as that
	// protocol sees them, and the state a replan moves goes by NCCL
	// send/receive under the same protocol.
	protocol string
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
	err = c.splitLayers()
	if c.par.Partition == "balanced" || mult != nil {
		c.balance(tr.stageMult(), cap)
	}
	return tr, err
}

// repartition is resihp's answer to the fail-slow the detector flagged in
// the iteration just run: each GPU's speed is measured as its predicted
// over its observed compute (1 unless the detector's threshold is
// crossed); the layers are dealt out again by the balanced partition at
// those speeds, and, when the split changes, the layers that change
// stage move before the next iteration. Each replica's slowdown under the
// new split, σ_r (its slowest stage's multiplier × layers over the largest
// stage's layers), is kept for rebalance.
func (d *driver) repartition(observed, predicted []units.Time) error {
	cur := d.cur
	mult := make([]float64, cur.s.NumGPUs())
	worst, worstAt := 1.0, -1
	for g := range mult {
		c := cur.at(g)
		mult[g] = max(1, float64(observed[c])/float64(max(1, predicted[c])))
		if mult[g] <= PredictorThreshold {
			mult[g] = 1
			continue
		}
		d.slowMult[c] = mult[g]
		if mult[g] > worst {
			worst, worstAt = mult[g], c
		}
	}
	now, err := splitOf(cur.s, nil, 0)
	if err != nil {
		return err
	}
	layers, err := balancedFit(cur.s, mult, slices.Max(now.layers))
	if err != nil || layers == nil || slices.Equal(layers, now.layers) {
		return err
	}
	next := cur
	next.gen++
	q := &next.s.Parallel
	q.LayersPerStage, q.Partition, q.FirstLastFewer = layers, "equal", 0
	plan, top := q.Plan(), float64(slices.Max(layers))
	d.sigma = make([]float64, q.DP)
	for g, m := range mult {
		co := plan.Coord(g)
		for _, k := range now.stageOfDev[co.PP] {
			d.sigma[co.DP] = max(d.sigma[co.DP], m*float64(layers[k])/top)
		}
	}
	end, err := d.replan(cur, next, d.now, 0, fmt.Sprintf("re-partition (GPU %d at %.2f× its predicted time): layers per stage %v → %v",
		worstAt, worst, now.layers, layers))
	d.cur, d.now = next, end
	return err
}

// rebalance deals a step's sequences (lengths[r][i], replica r's
// microbatch i) out again by predicted cost once a re-partition has left
// the replicas at different speeds (σ_r): the cost of a microbatch is its
// FLOPs at its length (workload.StageFLOPs over the whole model,
// attention's quadratic term included), and the greedy longest-first rule
// gives each microbatch, costliest first, to the replica whose finish
// (load + cost)·σ_r would be earliest, keeping every replica's microbatch
// count.
func (d *driver) rebalance(lengths [][]int) {
	if lengths == nil || len(d.sigma) != len(lengths) || slices.Max(d.sigma) == slices.Min(d.sigma) {
		return
	}
	var all []int
	for r, ls := range lengths {
		all = append(all, ls...)
		lengths[r] = ls[:0]
	}
	slices.Sort(all)
	m, _ := d.s.Model.Resolve()
	p := d.cur.s.Parallel
	load := make([]float64, len(lengths))
	for i := len(all) - 1; i >= 0; i-- {
		m.SeqLen = all[i]
		c := workload.StageFLOPs(m, m.Layers, true, true, p.MicroBatchSize, 1, 1, workload.Recompute(p.Recompute)).Hardware()
		best := -1
		for r := range lengths {
			if len(lengths[r]) < p.Microbatches && (best < 0 || (load[r]+c)*d.sigma[r] < (load[best]+c)*d.sigma[best]) {
				best = r
			}
		}
		lengths[best] = append(lengths[best], all[i])
		load[best] += c
	}
}

// balancedFit is the split of s's layers balanced at the measured
// multipliers mult that still fits its GPUs' memory: the balanced
// partition with a cap on the layers of a stage, lowered from no cap
// until the estimator (Estimator.Quick, the exact peak) finds the plan
// within 90% of the HBM (Estimate.NearOOM) or needing no more than the
// current split; nil when no cap above most (the current split's largest
// stage) fits.
func balancedFit(s scenario.Scenario, mult []float64, most int) ([]int, error) {
	est := NewEstimator()
	plain := onePlain(s)
	own, err := est.Quick(plain)
	for cap := 0; err == nil; cap-- {
		var tr *iteration
		if tr, err = splitOf(s, mult, cap); err != nil {
			break
		}
		plain.Parallel.LayersPerStage, plain.Parallel.Partition, plain.Parallel.FirstLastFewer = tr.layers, "equal", 0
		if e, err := est.Quick(plain); err == nil && (!e.NearOOM() && !e.OOM() || e.PeakMemory <= own.PeakMemory) {
			return tr.layers, nil
		}
		if cap = slices.Max(tr.layers); cap <= most {
			return nil, nil
		}
	}
	return nil, err
}

// onePlain is s as one plain iteration, which the estimator takes.
func onePlain(s scenario.Scenario) scenario.Scenario {
	s.Name, s.Iterations, s.Faults = "", 1, nil
	s.Straggler, s.Data = scenario.Straggler{}, scenario.Data{SeqDist: "fixed"}
	s.Failures.Duration = 0
	return s
}

// regroup is resihp's answer to a fail-stop: after the heartbeat timeout
// the job takes the best layout (bestLayout) on the GPUs still in its
// layout that are neither stopped nor flagged slow, rebuilds its
// communicators, moves the model state the new layout needs from the
// surviving replicas, and redoes the interrupted step on the new layout.
// GPUs the new layout leaves out sit idle (dropped) to the end of the run.
// When no plan fits the GPUs left, the job drops the replicas that lost a
// GPU instead, as elastic data parallelism does.
func (d *driver) regroup(step int, victims []int, t, detect units.Time) (int, error) {
	n := len(d.gpuOut)
	bad := make([]bool, n)
	probe := iterState{slow: d.slow, spare: d.spare}
	for c := range bad {
		bad[c] = d.gpuOut[c] || !d.running(c) || d.slowMult[c] > 1 && probe.speed(c, detect) < 1
	}
	next, err := d.bestLayout(bad)
	if err == errNoLayout {
		return d.elastic(step, victims, t, detect)
	}
	if err != nil {
		return 0, err
	}
	for _, c := range victims {
		d.addState(timeline.State{GPU: c, Node: -1, State: timeline.StateFailed, Start: t, End: -1})
	}
	next.gen = d.cur.gen + 1
	for c := range n {
		if next.local(c) < 0 && d.running(c) && !d.gpuOut[c] {
			d.addState(timeline.State{GPU: c, Node: -1, State: timeline.StateDropped, Start: detect, End: -1})
			d.ends[c] = append(d.ends[c], detect)
		}
	}
	end, err := d.replan(d.cur, next, detect, d.s.Recovery.ReconfigureCost, "regroup "+layoutLabel(d.cur.s)+" → "+layoutLabel(next.s))
	d.cur, d.now, d.sigma = next, end, nil
	d.live = make([]bool, next.s.Parallel.DP)
	for r := range d.live {
		d.live[r] = true
	}
	return step, err
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
	m := mover{from: from, to: to, old: old, next: next, gone: d.gpuOut, out: d.out}
	if err := m.plan(); err != nil {
		return 0, err
	}
	t, _, err := trainingTopology(d.s)
	if err == nil && d.protocol != "" {
		t, err = nccltest.ProtocolView(t, d.protocol)
	}
	if err != nil {
		return 0, err
	}
	tl, bytes, err := sendState(t, m.xfers)
	if err != nil {
		return 0, err
	}
	start := at + rebuild
	d.merge(tl, start)
	end := start + tl.End
	if rebuild > 0 {
		detail += "; communicators rebuilt in " + rebuild.String()
	}
	d.out.Recovery = append(d.out.Recovery, timeline.Recovery{Kind: "replan", GPU: -1, Start: at, End: end,
		Detail: detail + "; " + strconv.FormatFloat(bytes/1e9, 'f', 1, 64) + " GB of model state over the fabric in " + tl.End.String()})
	plan := next.s.Parallel.Plan()
	for g := range next.s.NumGPUs() {
		co := plan.Coord(g)
		if end > at {
			d.addState(timeline.State{GPU: next.at(g), Node: -1, State: timeline.StateReplan, Start: at, End: end,
				Group: "r" + strconv.Itoa(co.DP) + "·s" + strconv.Itoa(co.PP)})
		}
	}
	return end, nil
}
