package training

import (
	"errors"
	"fmt"
	"slices"

	"paraplay/sim/scenario"
	"paraplay/sim/units"
)

// grid is a rectangle of the cluster's GPUs: some servers, and the same
// GPU slots (local indices) in each, so that every rail and every server
// of it is whole.
type grid struct{ nodes, slots []int }

// errNoLayout: no plan of the job's family fits the GPUs left.
var errNoLayout = errors.New("recovery.policy: resihp found no plan that fits the GPUs left")

// maxRegroupSims bounds the candidate layouts a regroup simulates; the
// best of those simulated wins.
const maxRegroupSims = 4

// maxBadSlots bounds the slots whose every choice grids tries (2ⁿ of
// them); beyond it only "leave the servers out" and "leave the slots out"
// are tried.
const maxBadSlots = 10

// grids lists the grids of healthy GPUs of a cluster of nodes servers of
// per GPUs (bad[c]: cluster GPU c is not to be used), one per shape
// (servers × slots), the first found of each: for every choice of the
// slots that hold a bad GPU to leave out on all servers, the servers
// with a bad GPU in a slot still used are left out whole.
func grids(bad []bool, nodes, per int) []grid {
	var badSlots []int
	for c, b := range bad {
		if b && !slices.Contains(badSlots, c%per) {
			badSlots = append(badSlots, c%per)
		}
	}
	slices.Sort(badSlots)
	masks := []int{}
	if len(badSlots) <= maxBadSlots {
		for m := range 1 << len(badSlots) {
			masks = append(masks, m)
		}
	} else {
		masks = []int{0, -1}
	}
	seen := map[int]bool{}
	var out []grid
	for _, mask := range masks {
		var g grid
		for l := range per {
			if i := slices.Index(badSlots, l); i < 0 || mask>>i&1 == 0 {
				g.slots = append(g.slots, l)
			}
		}
		for n := range nodes {
			if !slices.ContainsFunc(g.slots, func(l int) bool { return bad[n*per+l] }) {
				g.nodes = append(g.nodes, n)
			}
		}
		key := len(g.nodes)*(per+1) + len(g.slots)
		if len(g.nodes) > 0 && len(g.slots) > 0 && !seen[key] {
			seen[key] = true
			out = append(out, g)
		}
	}
	return out
}

// layoutsOn lists the plans ResiHP's scheduler may regroup the job into
// on grid g: every tensor-parallel degree that divides the grid's GPUs
// per server and every pipeline depth whose model-parallel group tp·pp is
// no larger than the job's (each GPU then holds no more model state than
// before, and an iteration no more work than the run's budget allowed
// for), with as many data-parallel replicas as fill the grid, keeping the job's global batch exactly (the
// micro-batch size and dp·microbatches·micro_batch_size), its context-
// and expert-parallel degrees, ZeRO stage, recomputation and schedule
// (1f1b where the schedule does not fit the new depth). Each is the
// job's scenario on the grid, valid, one plain iteration.
func layoutsOn(base scenario.Scenario, g grid) []scenario.Scenario {
	p0 := base.Parallel
	batch := p0.DP * p0.Microbatches * p0.MicroBatchSize
	per, n := len(g.slots), len(g.nodes)*len(g.slots)
	var out []scenario.Scenario
	for tp := 1; tp <= per; tp++ {
		if per%tp != 0 || n%(tp*p0.CP) != 0 {
			continue
		}
		rest := n / (tp * p0.CP)
		for pp := 1; pp <= rest && tp*pp <= p0.TP*p0.PP; pp++ {
			dp := rest / pp
			if rest%pp != 0 || batch%(dp*p0.MicroBatchSize) != 0 || dp%p0.EP != 0 {
				continue
			}
			s := base
			s.Cluster.Nodes, s.Cluster.GPUsPerNode = len(g.nodes), per
			q := &s.Parallel
			q.DP, q.TP, q.PP, q.Microbatches = dp, tp, pp, batch/(dp*p0.MicroBatchSize)
			q.SequenceParallel = p0.SequenceParallel && tp > 1
			q.TPCommOverlap = p0.TPCommOverlap && q.SequenceParallel
			q.LayersPerStage = nil
			if s.Validate() != nil {
				q.Schedule, q.VirtualStages, q.FirstLastFewer = "1f1b", 1, 0
			}
			if s.Validate() == nil {
				out = append(out, s)
			}
		}
	}
	return out
}

// bestLayout is the layout ResiHP regroups the job into when the GPUs
// marked bad can no longer be used: among the plans of layoutsOn on every
// grid of the others, the one whose simulated iteration is shortest. The
// search is the planner's (sim/plan): Estimator.Quick gives each plan's
// exact peak memory and a bound no run beats; plans that run out of
// memory, or come within 10% of it (Estimate.NearOOM), where the job's
// own plan needed less are dropped; the rest are
// simulated at analytic fidelity in order of their bound until the bound
// reaches the best time found. Ties go to the first in order (more GPUs
// kept first).
func (d *driver) bestLayout(bad []bool) (placement, error) {
	base := onePlain(d.s)
	base.Fidelity = "analytic"
	per := d.s.PerNode()
	est := NewEstimator()
	own, err := est.Quick(base)
	if err != nil {
		return placement{}, fmt.Errorf("recovery.policy: resihp: the job's own plan: %w", err)
	}
	type cand struct {
		s     scenario.Scenario
		g     grid
		bound units.Time
	}
	var cands []cand
	for _, g := range grids(bad, max(1, d.s.Cluster.Nodes), per) {
		for _, s := range layoutsOn(base, g) {
			e, err := est.Quick(s)
			if err != nil || (e.OOM() || e.NearOOM()) && e.PeakMemory > own.PeakMemory {
				continue
			}
			cands = append(cands, cand{s, g, e.LowerBound})
		}
	}
	for i := 1; i < len(cands); i++ { // by bound, stable: an insertion sort of a few dozen
		for j := i; j > 0 && cands[j].bound < cands[j-1].bound; j-- {
			cands[j], cands[j-1] = cands[j-1], cands[j]
		}
	}
	best, bestT := -1, units.Time(0)
	for i, c := range cands {
		if best >= 0 && c.bound >= bestT || i == maxRegroupSims {
			break
		}
		tl, err := SimulateMirrored(c.s)
		if err != nil {
			return placement{}, fmt.Errorf("recovery.policy: resihp: simulating %s: %w", layoutLabel(c.s), err)
		}
		d.out.Events += tl.Events
		if best < 0 || tl.End < bestT {
			best, bestT = i, tl.End
		}
	}
	if best < 0 {
		return placement{}, errNoLayout
	}
	c := cands[best]
	c.s.Fidelity = d.s.Fidelity
	p := placement{s: c.s, of: make([]int, len(bad))}
	for i := range p.of {
		p.of[i] = -1
	}
	for _, n := range c.g.nodes {
		for _, l := range c.g.slots {
			p.of[n*per+l] = len(p.phys)
			p.phys = append(p.phys, n*per+l)
		}
	}
	return p, nil
}

// layoutLabel names a layout: "dp 4·tp 2·pp 3 on 24 GPUs".
func layoutLabel(s scenario.Scenario) string {
	p := s.Parallel
	return fmt.Sprintf("dp %d·tp %d·pp %d on %d GPUs", p.DP, p.TP, p.PP, s.NumGPUs())
}
