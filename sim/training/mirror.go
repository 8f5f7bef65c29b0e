package training

import (
	"paraplay/sim/scenario"
	"paraplay/sim/timeline"
)

// Mirrored replicas. Data-parallel replicas that cannot differ — one plain
// iteration (no faults, stragglers or variable batches), one GPU type, no
// gradient or parameter compression, analytic or ideal communication and the same
// links between every replica's pipeline stages — do exactly what replica
// 0 does, at the same instants, on their own GPUs. Only replica 0's ops
// are simulated: the data-parallel collectives still span every replica's
// GPUs (a mirrored GPU's communication stream is only ever held by
// collectives that replica 0's twin is in as well, so it is never the
// later one), and the timeline says which GPU each mirrored GPU repeats
// (timeline.Timeline.Mirrors). Replica 0's pipeline messages are copied to
// the others, and their activation memory is replica 0's. A test holds the
// expanded timeline byte-identical to simulating every replica.

// everyReplica, set only by tests, has every replica simulated: what a
// mirrored run must equal.
var everyReplica bool

// mirrorable reports whether the iteration's replicas cannot differ (see
// above). It needs the groups and the prices.
func (tr *iteration) mirrorable() bool {
	if everyReplica || tr.plan.DP == 1 || hierarchical(tr.par) || tr.par.Cyclic || tr.sdp != nil || tr.it != nil || tr.fid == detailed || tr.heterogeneous() ||
		encodesPerRank(tr.s.Compression) || (tr.experts != nil && tr.experts.varies) {
		return false
	}
	if tr.fid == ideal || tr.p2pBytes == 0 {
		return true
	}
	// Replica r's pipeline messages go from its device's first GPU
	// (message): each must cost what replica 0's does.
	for k := 1; k < tr.stages; k++ {
		a, b := tr.sch.Layout[k-1].Device, tr.sch.Layout[k].Device
		if a == b {
			continue
		}
		for _, pair := range [2][2]int{{a, b}, {b, a}} {
			a0, bw0, err0 := tr.paths.Cost(tr.mpGroup[0][pair[0]][0], tr.mpGroup[0][pair[1]][0])
			for r := 1; r < tr.plan.DP; r++ {
				ar, bwr, err := tr.paths.Cost(tr.mpGroup[r][pair[0]][0], tr.mpGroup[r][pair[1]][0])
				if err != nil || err0 != nil || ar != a0 || bwr != bw0 {
					return false
				}
			}
		}
	}
	return true
}

// mirrorCheck reports whether Simulate mirrors the replicas of s (for
// its Work), and whether asking built the iteration's topology (a second
// one, for the work bound): it lays out the groups and prices to ask.
func mirrorCheck(s scenario.Scenario) (mirrored, built bool) {
	if imperfect(s) || s.Parallel.DP == 1 || hierarchical(s.Parallel) || fidelityOf(s) == detailed || encodesPerRank(s.Compression) {
		return false, false
	}
	tr, err := newIteration(s, nil)
	if err != nil {
		return false, true
	}
	tr.groups()
	if tr.price() != nil {
		return false, true
	}
	return tr.mirrorable(), true
}

// simulated reports whether replica r's ops are in the graph: it runs, and
// it is not a mirror of replica 0.
func (tr *iteration) simulated(r int) bool {
	return tr.alive(r) && (!tr.mirrored || r == 0)
}

// source is the replica whose ops replica r's stand for: replica 0 for a
// mirror, else r.
func (tr *iteration) source(r int) int {
	if tr.mirrored {
		return 0
	}
	return r
}

// twinOf is, by GPU, the GPU of replica 0 at the same place in its group
// (itself in replica 0, and in every replica when not mirrored).
func (tr *iteration) twinOf() []int {
	twin := make([]int, len(tr.topo.GPUs))
	for g := range twin {
		twin[g] = g
	}
	if !tr.mirrored {
		return twin
	}
	for r := 1; r < tr.plan.DP; r++ {
		for d, group := range tr.mpGroup[r] {
			for j, g := range group {
				twin[g] = tr.mpGroup[0][d][j]
			}
		}
	}
	return twin
}

// mirror completes a mirrored run's timeline: which GPU each repeats, and
// the pipeline messages of replicas 1.. (replica 0's, which dependencies
// recorded at Collectives[first:end], on their own GPUs), in the order
// simulating every replica records them.
func (tr *iteration) mirror(tl *timeline.Timeline, first, end int) {
	if !tr.mirrored {
		return
	}
	tl.Mirrors = tr.twinOf()
	// place[g] is where replica 0's GPU g sits: device and rank.
	place := make(map[int][2]int, len(tr.mpGroup[0])*len(tr.mpGroup[0][0]))
	for d, group := range tr.mpGroup[0] {
		for j, g := range group {
			place[g] = [2]int{d, j}
		}
	}
	sends := tl.Collectives[first:end]
	copies := make([]timeline.Collective, 0, len(sends)*(tr.plan.DP-1))
	gpus := make([]int, 0, 2*len(sends)*(tr.plan.DP-1)) // one array for every copy's GPUs
	for r := 1; r < tr.plan.DP; r++ {
		for _, c := range sends {
			at := len(gpus)
			for _, g := range c.GPUs {
				p := place[g]
				gpus = append(gpus, tr.mpGroup[r][p[0]][p[1]])
			}
			c.GPUs = gpus[at:len(gpus):len(gpus)]
			copies = append(copies, c)
		}
	}
	tl.Collectives = append(tl.Collectives[:end], append(copies, tl.Collectives[end:]...)...)
}

// encodesPerRank reports whether compression adds work on each rank of the
// data-parallel collectives (gradients, or ZeRO's gathers), which the
// mirrors would not repeat.
func encodesPerRank(c scenario.Compression) bool { return c.Enabled() || c.Parameters != 1 }
